export { AnalyzerMismatchError } from "./analyzer-mismatch-error.js";
export { CorruptIndexError } from "./corrupt-index-error.js";
export { EmbedderMismatchError } from "./embedder-mismatch-error.js";
export { IndexLockedError } from "./index-locked-error.js";
export { IndexNotFoundError } from "./index-not-found-error.js";
export type { RefreshError } from "./reader-refresh.js";
export type {
  CommittedIndexSummary,
  EmbedderIdentity,
  LocalIndexStats,
  LocalSearchPort,
  LocalSearchPortOptions,
} from "./local-search-port.js";
export { answerabilityModelName, interactionPairs, parseAnswerabilityModel, scoreAnswerability } from "./answerability-model.js";
export type { AnswerabilityModel, InteractionName } from "./answerability-model.js";
export { answerabilitySignalNames, fittedSignalNames } from "./answerability-signals.js";
export type { AnswerabilitySignalName, AnswerabilitySignals } from "./answerability-signals.js";
export { defaultAnswerabilityModel } from "./default-answerability-model.js";
export { fitAnswerabilityModel } from "./fit-answerability-model.js";
export type { AnswerabilityExample, FitAnswerabilityOptions } from "./fit-answerability-model.js";
export { openLocalSearchPort } from "./open-local-search-port.js";
export {
  defaultApproximateCandidates,
  defaultCjkDenseWeight,
  defaultDenseFloor,
  defaultDenseWeight,
  defaultMinScore,
} from "./read-local-port-settings.js";
export { queryDenseWeight, type DenseWeights } from "./query-dense-weight.js";
/** The terms the index holds and queries are analysed into: `lexicalTerms` of `@lookup-knowledge/text`. */
export { lexicalTerms as tokenize } from "@lookup-knowledge/text";
export type { CjkSegmentation } from "@lookup-knowledge/text";
