import type { KnowledgeGapOptions } from "./knowledge-gap-options.js";
import type { KnowledgeGapReport } from "./knowledge-gap-report.js";
import type { KnowledgeGapRow } from "./knowledge-gap-row.js";
import { compareText, groupGapQueries } from "./group-gap-queries.js";
import { describeGapGroup } from "./describe-gap-group.js";
import { prepareGapQueries } from "./prepare-gap-queries.js";

/** How many lookup ids a group keeps by default. */
export const defaultMaxLookupIds = 50;

/**
 * Groups a period's distinct refused and low-relevance queries by the salient terms they share
 * (issue 37): pure and deterministic, the same rows (in any order) give the same groups in the
 * same order, largest first (lookups, then distinct queries, then id).
 */
export function buildKnowledgeGapReport(
  rows: readonly KnowledgeGapRow[],
  options: KnowledgeGapOptions & { until: Date; maxLookupIds?: number },
): KnowledgeGapReport {
  const maxLookupIds = options.maxLookupIds ?? defaultMaxLookupIds;
  const queries = prepareGapQueries(rows, options);
  const groups = groupGapQueries(queries)
    .map((group) => describeGapGroup(group, maxLookupIds))
    .sort((left, right) => right.lookups - left.lookups || right.distinctQueries - left.distinctQueries || compareText(left.id, right.id));
  const hashedQueries = queries.filter((query) => query.hashed).length;
  const allHashed = options.queryStorage === "hash" || (queries.length > 0 && hashedQueries === queries.length);
  const note =
    queries.length === 0
      ? "No refused or low-relevance lookups in this period."
      : allHashed
        ? "Queries are kept as keyed hashes (traces.store-query: hash): no query text is shown, and the groups were built from the stored L0 hints and sources only."
        : hashedQueries > 0
          ? `${hashedQueries} of the ${queries.length} distinct queries are kept as keyed hashes: they show no text and were grouped by their stored L0 hints and sources only.`
          : undefined;
  return {
    since: options.since.toISOString(),
    until: options.until.toISOString(),
    lookupsRead: rows.reduce((sum, row) => sum + row.lookups, 0),
    distinctQueries: rows.length,
    queryText: allHashed ? "hashed" : "shown",
    salience: options.documentFrequencies !== undefined && hashedQueries < queries.length ? "knowledge-base" : "records",
    ...(note ? { note } : {}),
    groups,
  };
}
