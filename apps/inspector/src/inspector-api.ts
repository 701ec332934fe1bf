import type { LookupExplanation } from "@lookup-knowledge/agent-tool";
import type { CalibrationView } from "./calibration-api.js";
import type { GapsView } from "./gaps-api.js";
import type { InspectorInfo } from "./info-api.js";
import type { Json } from "./json.js";
import type { PlaygroundComparison, PlaygroundRun } from "./playground-api.js";
import type { SourceSearch } from "./sources-api.js";
import type { TraceDetail, TracePage } from "./traces-api.js";

/**
 * What each `/api/` endpoint answers with, as the page receives it: the JSON of the value the
 * endpoint's function returns (`routeApiRequest` calls it). The page imports this type, and
 * only this type, so a change to an answer is a type error in the page that reads it. An
 * error answers `{ "error": { "code", "message" } }` instead, with a 4xx or 5xx status.
 */
export interface InspectorApi {
  /** `readInspectorInfo`. */
  "GET /api/info": Json<InspectorInfo>;
  /** `listTraces`. */
  "GET /api/traces": Json<TracePage>;
  /** `getTrace`. */
  "GET /api/traces/:id": Json<TraceDetail>;
  /** `readGaps`. */
  "GET /api/gaps": Json<GapsView>;
  /** `searchSources`. */
  "GET /api/sources": Json<SourceSearch>;
  /** `runPlaygroundLookup`. */
  "POST /api/lookup": Json<PlaygroundRun>;
  /** `comparePlaygroundLookups`. */
  "POST /api/compare": Json<PlaygroundComparison>;
  /** `explainWhyNot`. */
  "POST /api/why-not": Json<LookupExplanation>;
  /** `runCalibration`. */
  "POST /api/calibration": Json<CalibrationView>;
}
