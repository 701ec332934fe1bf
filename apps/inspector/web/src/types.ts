// The page's names for what the /api/ endpoints answer: the server's own types (`InspectorApi`,
// the JSON of what each endpoint's function returns), imported as types only, so no server
// code reaches the bundle. Only the unions of what two views share are the page's own.
import type { InspectorApi } from "../../src/inspector-api.js";

export type Info = InspectorApi["GET /api/info"];
export type TracePage = InspectorApi["GET /api/traces"];
export type TraceRow = TracePage["records"][number];
export type TraceRecord = InspectorApi["GET /api/traces/:id"];
export type SourceSearch = InspectorApi["GET /api/sources"];
export type SourceDocument = SourceSearch["documents"][number];
export type PlaygroundRun = InspectorApi["POST /api/lookup"];
export type PlaygroundComparison = InspectorApi["POST /api/compare"];
export type BlockChange = PlaygroundComparison["changes"][number];
export type LookupExplanation = InspectorApi["POST /api/why-not"];
export type ExplainOutcome = LookupExplanation["attempts"][number]["outcome"];
export type CalibrationView = InspectorApi["POST /api/calibration"];
export type GapsAnswer = InspectorApi["GET /api/gaps"];
export type GapGroup = GapsAnswer["report"]["groups"][number];

type TraceDetails = TraceRecord["retrievalDetails"];
type LookupTrace = PlaygroundRun["result"]["retrievalTrace"];

/** An attempt as a trace records it (its error one line) or as a playground lookup returns it. */
export type AttemptView = TraceDetails["attempts"][number] | LookupTrace["attempts"][number];
/** L0 hints as a trace records them or as a playground lookup returns them. */
export type Hints = TraceDetails["hints"] | LookupTrace["hints"];
/** A rerank entry as a trace records it (its boosts without reasons) or as a playground lookup returns it. */
export type RerankEntry =
  | TraceDetails["rerank"][number]
  | Extract<PlaygroundRun["result"], { found: true }>["rerankTrace"]["entries"][number];
