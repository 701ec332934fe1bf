import type { KnowledgeGapOptions, KnowledgeGapReport } from "@lookup-knowledge/trace-store";
import { parsePointInTime, pointInTimeForms } from "@lookup-knowledge/core";
import { dailyCounts, type DayCount } from "./daily-counts.js";
import { InspectorRequestError } from "./inspector-request-error.js";

/** What the Gaps view reads: a trace store that groups a period's refused and low-relevance lookups (the durable store's `knowledgeGaps`). */
export interface GapsReader {
  knowledgeGaps(options: KnowledgeGapOptions): Promise<KnowledgeGapReport>;
}

/** How the knowledge base splits and weighs terms, so the groups are the ones `lookup-knowledge gaps` gives. */
export type GapTerms = Pick<KnowledgeGapOptions, "analyze" | "documentFrequencies">;

/**
 * The answer of `GET /api/gaps`: `lookup-knowledge gaps`' report of the period, and the
 * lookups per UTC day over the whole period (the days without any as 0) for its chart, in all
 * and per group (by the group's `id`).
 */
export interface GapsView {
  report: KnowledgeGapReport;
  chart: {
    days: DayCount[];
    /** Whether the period was longer than the chart (its latest days are drawn). */
    cut: boolean;
    perGroup: Record<string, DayCount[]>;
  };
}

/** The period `gaps` reads without `--since`. */
export const defaultGapsSince = "30d";

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
  const since = parsePointInTime(written, now);
  if (!since) throw invalid(`since must be ${pointInTimeForms}, got ${JSON.stringify(written.slice(0, 40))}.`);
  const report = await reader.knowledgeGaps({
    since,
    until: now,
    ...options.terms,
    ...(options.queryIsHash ? { queryStorage: "hash" } : {}),
  });
  const period = { from: new Date(report.since), to: new Date(report.until) };
  const all = dailyCounts(
    report.groups.flatMap((group) => group.perDay),
    period,
  );
  const perGroup: Record<string, DayCount[]> = {};
  for (const group of report.groups) perGroup[group.id] = dailyCounts(group.perDay, period).days;
  return { report, chart: { days: all.days, cut: all.cut, perGroup } };
}

function invalid(message: string): InspectorRequestError {
  return new InspectorRequestError({ status: 400, code: "invalid_request", message });
}
