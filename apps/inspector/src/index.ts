// `@lookup-knowledge/inspector`: the retrieval inspector page and its JSON API, served by
// `lookup-knowledge inspect`.
export { serveInspector } from "./serve-inspector.js";
export type { InspectorOptions, InspectorServer } from "./serve-inspector.js";
export type { InspectorApi } from "./inspector-api.js";
export type { Json } from "./json.js";
export type { InspectorInfo } from "./info-api.js";
export type { TraceDetail, TracePage, TraceReader, TraceRow } from "./traces-api.js";
export type { ModelContent } from "./rebuild-model-content.js";
export type { BlockChange } from "./compare-lookups.js";
export type { PlaygroundComparison, PlaygroundRun } from "./playground-api.js";
export type { CalibrationView } from "./calibration-api.js";
export type { GapsReader, GapsView, GapTerms } from "./gaps-api.js";
export type { DayCount } from "./daily-counts.js";
export { knowledgeBaseGapTerms } from "./knowledge-base-gap-terms.js";
export type { SourceDocument, SourceSearch } from "./sources-api.js";
export type { InspectorErrorCode } from "./inspector-error-code.js";
export { InspectorRequestError } from "./inspector-request-error.js";
export { InspectorListenError } from "./inspector-listen-error.js";
export type { OpenTraceReader, OwnedTraceReader } from "./lazy-trace-reader.js";
