import type { Candidate } from "@lookup-knowledge/core";
import { mergeHitReasons } from "./internal/hit-reasons.js";

/**
 * Orders the copies of one evidence key: the higher-ranked one first (lower port rank),
 * then the better score, then content, so the winner never depends on input order.
 */
function compareCopies(a: Candidate, b: Candidate): number {
  if (a.portRank !== b.portRank) return a.portRank - b.portRank;
  const scoreA = a.score ?? -1;
  const scoreB = b.score ?? -1;
  if (scoreA !== scoreB) return scoreB - scoreA;
  return a.content < b.content ? -1 : a.content > b.content ? 1 : 0;
}

/**
 * Merges duplicates (R15). Two candidates are duplicates only when their `evidenceKey`s are
 * equal: the higher-ranked copy (lowest `portRank`) keeps its content and fields, the hit
 * reasons of all copies are merged (a reason with the same signal and detail is kept
 * once), and the best score of the copies is kept. Different chunks of one document stay
 * separate. The output is in order of each key's first appearance.
 */
export function dedupeCandidates(candidates: Candidate[]): Candidate[] {
  const groups = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const group = groups.get(candidate.evidenceKey);
    if (group) group.push(candidate);
    else groups.set(candidate.evidenceKey, [candidate]);
  }
  const deduped: Candidate[] = [];
  for (const group of groups.values()) {
    const [only, second] = group;
    if (only === undefined) continue;
    if (second === undefined) {
      deduped.push(only);
      continue;
    }
    const copies = [...group].sort(compareCopies);
    const winner = copies[0] ?? only;
    const scores = copies.flatMap((copy) => (copy.score === undefined ? [] : [copy.score]));
    const merged: Candidate = { ...winner, hitReasons: mergeHitReasons(...copies.map((copy) => copy.hitReasons)) };
    if (scores.length > 0) merged.score = Math.max(...scores);
    deduped.push(merged);
  }
  return deduped;
}
