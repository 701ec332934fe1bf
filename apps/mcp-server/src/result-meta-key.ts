/**
 * The `_meta` key under which `lookup_knowledge` and `fetch_evidence` put what a program reads
 * of their answer (found, ids, sources, scores, neighbours): never the evidence itself, which
 * the text content carries once. Clients hand `content` to the model and keep `_meta` for the
 * program (`@langchain/mcp-adapters` shows both: it is kept small).
 */
export const resultMetaKey = "lookup-knowledge/result";
