export { createKnowledgeRetriever } from "./create-knowledge-retriever.js";
export type { KnowledgeRetriever, KnowledgeRetrieverOptions, LookupOptions } from "./create-knowledge-retriever.js";
export { createLookupKnowledgeTool, lookupKnowledgeInputSchema } from "./create-lookup-knowledge-tool.js";
export type { LookupKnowledgeToolOptions } from "./create-lookup-knowledge-tool.js";
export { normalizeQuery } from "./normalize-query.js";
export type { NormalizedQuery } from "./normalize-query.js";
export { renderEvidenceContent } from "./render-evidence-content.js";
export { transformQuery } from "./transform-query.js";
export type { TransformedQuery } from "./transform-query.js";
