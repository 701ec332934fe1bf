import type { LookupResult } from "@lookup-knowledge/core";

/**
 * For `query --filter`: when no attempt found a candidate, one line that says so (instead of a bare
 * "no evidence"), naming the filter as given; else undefined. It does not claim the filter matched
 * no chunk: the query itself may match nothing.
 */
export function unmatchedFilterNote(result: LookupResult, pairs: readonly string[]): string | undefined {
  const { attempts } = result.retrievalTrace;
  if (pairs.length === 0 || result.found || attempts.length === 0) return undefined;
  if (attempts.some((attempt) => attempt.candidateCount > 0 || attempt.error !== undefined)) return undefined;
  const given = pairs.map((pair) => `--filter ${pair}`).join(" ");
  return `Nothing matched this query with ${given}; check the filter's key and value (\`lookup-knowledge stats\` lists the metadata keys and their most common values).`;
}
