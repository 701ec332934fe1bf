import type { L0Hints } from "@lookup-knowledge/core";

export interface TransformedQuery {
  received: string;
  normalized: string;
  transformed: string;
  truncated: boolean;
  addedTerms: string[];
}

const maxAddedTerms = 3;

/**
 * Query transformation (R3). The normalised query is what a retry uses; with expansion on,
 * the first request also carries up to three entity terms (aliases) of the matched L0
 * entries that the query does not already contain.
 */
export function transformQuery(
  normalized: { received: string; normalized: string; truncated: boolean },
  hints: L0Hints | undefined,
  options: { expansion: boolean },
): TransformedQuery {
  const addedTerms: string[] = [];
  if (options.expansion && hints) {
    const lower = normalized.normalized.toLowerCase();
    const aliases = hints.entries.flatMap((entry) => entry.entities ?? []);
    for (const entity of aliases) {
      if (addedTerms.length >= maxAddedTerms) break;
      const term = entity.trim();
      if (term !== "" && !lower.includes(term.toLowerCase()) && !addedTerms.includes(term)) addedTerms.push(term);
    }
  }
  return {
    received: normalized.received,
    normalized: normalized.normalized,
    transformed: addedTerms.length === 0 ? normalized.normalized : `${normalized.normalized} ${addedTerms.join(" ")}`,
    truncated: normalized.truncated,
    addedTerms,
  };
}
