import { pointInTimeForms } from "@lookup-knowledge/core";
import { defaultGapsSince, type KnowledgeGapOptions, type KnowledgeGapReport, readGapPeriodStart } from "@lookup-knowledge/trace-store";
import { dailyCounts, type DayCount } from "./daily-counts.js";
import { InspectorRequestError } from "./inspector-request-error.js";

/** What the Gaps view reads: a trace store that groups a period's refused and low-relevance lookups (the durable store's `knowledgeGaps`). */
export interface GapsReader {
  knowledgeGaps(options: KnowledgeGapOptions): Promise<KnowledgeGapReport>;
}

/** How the knowledge base splits and weighs terms, so the groups are the ones `lookup-knowledge gaps` gives. */
export type GapTerms = Pick<KnowledgeGapOptions, "analyze" | "documentFrequencies">;

/**
 * The answer of `GET /api/gaps`: `lookup-knowledge gaps`' report of the period, and its gap
 * lookups per UTC day over the whole period (the days without any as 0) for its chart. A
 * group's own chart is its `perDay` over the same days (the page fills them in, so the answer
 * does not grow by a period of days per group).
 */
export interface GapsView {
  report: KnowledgeGapReport;
  chart: {
    days: DayCount[];
    /** Whether the period was longer than the chart (its latest days are drawn). */
    cut: boolean;
  };
}

/**
 * `GET /api/gaps?since=30d`: the refused and low-relevance lookups since `since` (read as
 * `traces --since` reads it; default the last 30 days), grouped by topic as
 * `lookup-knowledge gaps` groups them, largest group first. Under `traces.store-query: hash`
 * the report holds no query text, even of records kept before the setting.
 */
export async function readGaps(
  reader: GapsReader,
  parameters: URLSearchParams,
  options: { queryIsHash: boolean; terms: GapTerms; now?: Date },
): Promise<GapsView> {
  const now = options.now ?? new Date();
  const written = parameters.get("since")?.trim() || defaultGapsSince;
  const start = readGapPeriodStart(written, now);
  const shown = JSON.stringify(written.slice(0, 40));
  if ("problem" in start) {
    throw invalid(
      start.problem === "future"
        ? `since must not be in the future, got ${shown} (${start.since.toISOString()}).`
        : `since must be ${pointInTimeForms}, got ${shown}.`,
    );
  }
  const { since } = start;
  const report = await reader.knowledgeGaps({
    since,
    until: now,
    ...options.terms,
    ...(options.queryIsHash ? { queryStorage: "hash" } : {}),
  });
  const period = { from: new Date(report.since), to: new Date(report.until) };
  const { days, cut } = dailyCounts(
    report.groups.flatMap((group) => group.perDay),
    period,
  );
  return { report, chart: { days, cut } };
}

function invalid(message: string): InspectorRequestError {
  return new InspectorRequestError({ status: 400, code: "invalid_request", message });
}
