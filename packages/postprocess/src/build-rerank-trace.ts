import type { RerankTrace, RerankTraceEntry } from "@lookup-knowledge/core";
import { roundTo } from "./internal/numbers.js";
import type { RankedCandidate } from "./rerank-candidates.js";

/** Names the rule set, so a reader of the trace knows what the amounts mean. */
export const rerankMethod =
  "rules:v2 base=port score (unscored: 0.5/port rank, 1 first) + named boosts title, keyword, entity, domain, heading, query_term; each signal capped; a document's further blocks x (1 - repeatedDocument) per block above (repeated_document)";

/**
 * The rerank trace (R19) of the first `limit` ranked candidates (all by default): final
 * rank, evidence key, source, the port's score as `baseScore` when it gave one, every boost
 * with its reason and amount, the final score (4 decimals) and the port's rank (1 first).
 */
export function buildRerankTrace(ranked: RankedCandidate[], limit: number = ranked.length): RerankTrace {
  const entries = ranked.slice(0, Math.max(0, limit)).map((candidate, index): RerankTraceEntry => {
    const entry: RerankTraceEntry = {
      rank: index + 1,
      evidenceKey: candidate.evidenceKey,
      source: candidate.source,
      boosts: candidate.boosts.map((boost) => ({ ...boost })),
      finalScore: roundTo(candidate.rankScore, 4),
      portRank: candidate.portRank + 1,
    };
    if (candidate.score !== undefined) entry.baseScore = candidate.score;
    return entry;
  });
  return { method: rerankMethod, entries };
}
