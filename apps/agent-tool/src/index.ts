export { createKnowledgeRetriever } from "./create-knowledge-retriever.js";
export type { KnowledgeRetriever, KnowledgeRetrieverOptions, LookupOptions } from "./create-knowledge-retriever.js";
export type { KnowledgeRetrieverTelemetryOptions } from "./telemetry/telemetry-options.js";
export type {
  TelemetryAttributes,
  TelemetryAttributeValue,
  TelemetrySpan,
  TelemetrySpanOptions,
  TelemetryTracer,
} from "./telemetry/telemetry-tracer.js";
export { createLookupKnowledgeTool } from "./create-lookup-knowledge-tool.js";
export type { LookupKnowledgeToolOptions } from "./create-lookup-knowledge-tool.js";
export { createLookupKnowledgeInputSchema, lookupKnowledgeInputSchema } from "./lookup-knowledge-input-schema.js";
export type { LookupKnowledgeInput, LookupKnowledgeInputOptions, LookupKnowledgeInputSchema } from "./lookup-knowledge-input-schema.js";
export { createLangChainRetriever, lookupKnowledgeResultEvent } from "./create-langchain-retriever.js";
export type { DocumentsWithResult, LangChainKnowledgeRetriever, LangChainRetrieverOptions } from "./create-langchain-retriever.js";
export { lookupFieldNames, lookupResultToDocuments } from "./lookup-result-to-documents.js";
export type { KnowledgeDocumentMetadata } from "./lookup-result-to-documents.js";
export { formatLookupResult } from "./format-lookup-result.js";
export { normalizeQuery } from "./normalize-query.js";
export type { NormalizedQuery } from "./normalize-query.js";
export { renderEvidenceContent } from "./render-evidence-content.js";
export { documentIdOf, evidenceKeyOf } from "./document-id-of.js";
export { transformQuery } from "./transform-query.js";
export type { TransformedQuery } from "./transform-query.js";
export type { AgentToolErrorCode } from "./agent-tool-error-code.js";
export { explainLookup } from "./explain/explain-lookup.js";
export type { ExplainableKnowledgeBase, ExplainLookupOptions } from "./explain/explain-lookup.js";
export type {
  ExplainAttempt,
  ExplainExpected,
  ExplainOutcome,
  ExplainOutcomeKind,
  LookupExplanation,
} from "./explain/lookup-explanation.js";
