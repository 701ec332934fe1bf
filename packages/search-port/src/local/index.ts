export { AnalyzerMismatchError } from "./errors/analyzer-mismatch-error.js";
export { CorruptIndexError } from "./errors/corrupt-index-error.js";
export { EmbedderMismatchError } from "./errors/embedder-mismatch-error.js";
export { IndexLockedError } from "./errors/index-locked-error.js";
export { IndexNotFoundError } from "./errors/index-not-found-error.js";
export type { RefreshError } from "./reader/reader-refresh.js";
export type {
  CommittedIndexSummary,
  EmbedderIdentity,
  LocalIndexStats,
  LocalSearchPort,
  MetadataKeyStats,
  MetadataKeysSummary,
} from "./port/local-search-port.js";
export type { LocalSearchPortOptions } from "./port/local-search-port-options.js";
export type { EmbeddedRow, LocalEmbeddings } from "./writer/embedded-row.js";
export {
  answerabilityModelName,
  interactionPairs,
  parseAnswerabilityModel,
  scoreAnswerability,
} from "./answerability/answerability-model.js";
export type { AnswerabilityModel, InteractionName } from "./answerability/answerability-model.js";
export { answerabilitySignalNames, fittedSignalNames } from "./answerability/answerability-signals.js";
export type { AnswerabilitySignalName, AnswerabilitySignals } from "./answerability/answerability-signals.js";
export { defaultAnswerabilityModel } from "./answerability/default-answerability-model.js";
export { fitAnswerabilityModel } from "./answerability/fit-answerability-model.js";
export type { AnswerabilityExample, FitAnswerabilityOptions } from "./answerability/fit-answerability-model.js";
export { openLocalSearchPort } from "./open-local-search-port.js";
export {
  defaultApproximateCandidates,
  defaultCjkDenseWeight,
  defaultDenseFloor,
  defaultDenseWeight,
  defaultMinScore,
} from "./port/local-search-port-options.js";
export { queryDenseWeight, type DenseWeights } from "./dense/query-dense-weight.js";
/** The terms the index holds and queries are analysed into: `lexicalTerms` of `@lookup-knowledge/text`. */
export { lexicalTerms as tokenize } from "@lookup-knowledge/text";
export type { CjkSegmentation } from "@lookup-knowledge/text";
