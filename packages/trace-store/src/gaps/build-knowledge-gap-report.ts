import type { KnowledgeGapOptions } from "./knowledge-gap-options.js";
import type { KnowledgeGapReport } from "./knowledge-gap-report.js";
import type { KnowledgeGapRow } from "./knowledge-gap-row.js";

/** How many lookup ids a group keeps by default. */
export const defaultMaxLookupIds = 50;

/**
 * Groups a period's distinct refused and low-relevance queries by the salient terms they share
 * (issue 37): pure and deterministic, the same rows give the same groups in the same order.
 */
export function buildKnowledgeGapReport(
  _rows: readonly KnowledgeGapRow[],
  _options: KnowledgeGapOptions & { until: Date; maxLookupIds: number },
): KnowledgeGapReport {
  throw new Error("not implemented yet");
}
