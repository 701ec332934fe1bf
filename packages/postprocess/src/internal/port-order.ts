import type { Candidate } from "@lookup-knowledge/core";

/**
 * The port's own ranking, the one "higher-ranked" means before rerank: by score (unscored
 * after scored), then port position, then evidence key, then content, so the order never
 * depends on the input's order.
 */
export function compareByPort(a: Candidate, b: Candidate): number {
  if (a.score !== undefined && b.score !== undefined && a.score !== b.score) return b.score - a.score;
  if ((a.score === undefined) !== (b.score === undefined)) return a.score === undefined ? 1 : -1;
  if (a.portRank !== b.portRank) return a.portRank - b.portRank;
  if (a.evidenceKey !== b.evidenceKey) return a.evidenceKey < b.evidenceKey ? -1 : 1;
  return a.content < b.content ? -1 : a.content > b.content ? 1 : 0;
}
