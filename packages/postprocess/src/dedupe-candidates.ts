import type { Candidate } from "@lookup-knowledge/core";
import { mergeHitReasons } from "./internal/hit-reasons.js";
import { compareByPort } from "./internal/port-order.js";

/**
 * Merges duplicates (R15). Two candidates are duplicates only when their `evidenceKey`s are
 * equal: the higher-ranked copy (in the port's ranking: best score, then port position)
 * keeps its content, score and fields, and the hit reasons of all copies are merged (a
 * reason with the same signal and detail is kept once), so a block never shows one copy's
 * text with another copy's score. Different chunks of one document stay
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
    const copies = [...group].sort(compareByPort);
    const winner = copies[0] ?? only;
    deduped.push({ ...winner, hitReasons: mergeHitReasons(...copies.map((copy) => copy.hitReasons)) });
  }
  return deduped;
}
