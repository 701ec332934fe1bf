import type { LookupResult } from "@lookup-knowledge/core";

/**
 * For `query --filter`: when the caller's filter let no chunk through on any attempt, one line
 * that says so (instead of a bare "no evidence"), naming the filter as given; else undefined.
 */
export function unmatchedFilterNote(result: LookupResult, pairs: readonly string[]): string | undefined {
  const { attempts } = result.retrievalTrace;
  if (pairs.length === 0 || result.found || attempts.length === 0) return undefined;
  if (attempts.some((attempt) => attempt.candidateCount > 0 || attempt.error !== undefined)) return undefined;
  const given = pairs.map((pair) => `--filter ${pair}`).join(" ");
  return `The filter matched nothing: no chunk of the knowledge base has ${given} (check the key and the value; \`lookup-knowledge stats\` shows what was ingested).`;
}
