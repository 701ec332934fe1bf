export type { Answerability } from "./answerability.js";
export type { Candidate, HitReason, HitSignal, RejectedHit } from "./candidate.js";
export type { ContextPack, PackedBlock } from "./context-pack.js";
export type { CoreErrorCode } from "./errors.js";
export {
  ConfigurationError,
  InvalidFilterError,
  InvalidQueryError,
  LookupKnowledgeError,
  TimeoutError,
  describeValue,
  errorMessage,
} from "./errors.js";
export type { EvidenceBlock, RetrievalLayer } from "./evidence-block.js";
export { parseOptions } from "./parse-options.js";
export { printable } from "./printable.js";
export { fallbackReasons, isFallbackReason } from "./fallback-reasons.js";
export { parsePointInTime, pointInTimeForms } from "./parse-point-in-time.js";
export { parseFilterPairs } from "./parse-filter-pairs.js";
export { evidenceKey, readChunkIndex, readDocId } from "./evidence-key.js";
export { emptyL0Hints, hasL0Hints } from "./l0-hints.js";
export type { KnowledgeEntry, L0EntryMatch, L0Hints, L0MatchField } from "./l0-hints.js";
export type {
  CompletenessHint,
  EvidenceStatus,
  FoundLookupResult,
  LookupResult,
  NoEvidenceLookupResult,
  RelevanceLevel,
} from "./lookup-result.js";
export { filterOperators } from "./metadata-filter.js";
export type { FieldCondition, FilterOperator, FilterValue, MetadataFilter } from "./metadata-filter.js";
export { defaultRagConfig, ragConfigKey, ragConfigKeys, resolveRagConfig } from "./rag-config.js";
export type { FlatRagConfig, RagConfig, RagConfigInput } from "./rag-config.js";
export type { RerankBoost, RerankTrace, RerankTraceEntry } from "./rerank-trace.js";
export type {
  AttemptOutcome,
  FallbackReason,
  QueryTrace,
  RetrievalAttempt,
  RetrievalTrace,
} from "./retrieval-trace.js";
export type { SearchHit } from "./search-hit.js";
