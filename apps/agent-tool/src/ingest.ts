// `@lookup-knowledge/agent-tool/ingest`: a Markdown folder into any store (the local index by
// default), without the retriever: what an ingest needs and nothing a lookup needs. The
// Markdown parser itself is loaded when an ingest runs.
export { ingestIntoLocalIndex } from "./ingest-into-local-index.js";
export { ingestIntoStore } from "./ingest-into-store.js";
