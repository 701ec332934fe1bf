// `@lookup-knowledge/agent-tool/local`: the embedded default (local index, offline
// embedder, ingest). A separate entry, so that importing the tool does not load them.
export { commonTermRecords, commonTermShare, commonTermTest, commonTermTestInScope, l0IndexOptions } from "./common-term-test.js";
export { ingestIntoLocalIndex } from "./ingest-into-local-index.js";
export { optimizeLocalIndex } from "./optimize-local-index.js";
export type { OptimizeReport } from "./optimize-local-index.js";
export { localIndexDirectory, tracesDirectory } from "./local-data-folder.js";
export { openLocalKnowledgeBase } from "./open-local-knowledge-base.js";
export type { LocalKnowledgeBase } from "./open-local-knowledge-base.js";
