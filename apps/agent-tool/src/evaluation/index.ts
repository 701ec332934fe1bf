// `@lookup-knowledge/agent-tool/evaluation`: measure and calibrate a knowledge base on your
// own questions: the ranking metrics, the question-file reader and parser, the evaluation runner, and
// the calibration that `lookup-knowledge calibrate` fits and lookups read.
export { calibrateKnowledgeBase, minimumQuestions } from "./calibrate-knowledge-base.js";
export type { CalibrationReport, GateFigures } from "./calibrate-knowledge-base.js";
export {
  calibrationFileName,
  calibrationFilePath,
  calibrationFormatVersion,
  readCalibrationFile,
  writeCalibrationFile,
} from "./calibration-file.js";
export type { Calibration } from "./calibration-file.js";
export { evaluateRetriever, summarizeOutcomes } from "./evaluate-retriever.js";
export type { LookupRunner, QuestionOutcome, RetrieverEvaluation } from "./evaluate-retriever.js";
export {
  collectAnswerabilitySamples,
  fitUserAnswerabilityModel,
  neutralAnswerabilityModel,
  roughFitBelow,
} from "./fit-user-answerability-model.js";
export type { AnswerabilitySample } from "./fit-user-answerability-model.js";
export { QuestionFileError } from "./question-file-error.js";
export { maxQuestions, readQuestionFile } from "./read-question-file.js";
export { parseQuestionFile } from "./parse-question-file.js";
export type { EvaluationQuestion } from "./read-question-file.js";
export { mrrAt, ndcgAt, recallAt, scoreRankings } from "./ranking-metrics.js";
export type { Judgments, RankingScores } from "./ranking-metrics.js";
export { describeCalibration, resolveCalibration } from "./resolve-calibration.js";
export { setsReferenceThreshold } from "../retriever/sets-reference-threshold.js";
export type { AppliedCalibration, CalibrationState } from "./resolve-calibration.js";
export { sourceKey } from "./source-key.js";
export { unknownRelevantSources } from "./unknown-relevant-sources.js";
export { fitReferenceThreshold, fitThresholds, tableThresholds, thresholdTradeOff } from "./threshold-trade-off.js";
export type { ThresholdRow } from "./threshold-trade-off.js";
export { storeIdentity } from "../open-search-store.js";
export type { StoreIdentity } from "../open-search-store.js";
