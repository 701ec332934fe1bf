import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { sumLexicalOnKernel } from "./sum-lexical-on-kernel.js";
import type { MatchedTerm } from "./weigh-query-terms.js";

/** The lexical score of every slot a query touches, term by term. */
export interface LexicalScores {
  /** By slot; the snapshot's scratch array, zero outside `touched` until `release`. */
  scores: Float64Array;
  /** The slots with a score, in the order they were first reached. */
  touched: Uint32Array;
  touchedCount: number;
  /** Sets the scratch array back to zero: call it when done, before another search of the snapshot. */
  release: () => void;
  /** Tells `release` that the caller already set every score back to zero (a pass that clears as it reads). */
  markCleared: () => void;
}

/**
 * Adds up every matched term's share (`weighQueryTerms`) for every slot holding it, term by
 * term in the order of the query: the scores every path of the search (hybrid, filtered)
 * reads. Searches of one snapshot never overlap (they run synchronously), so the scores
 * live in one scratch array per snapshot, with the list of the slots they touched.
 *
 * With `scratch` (all zero, one per slot; the dense path gives `DenseMatrix.lexicalScratch`,
 * whose fused pass reads every slot and sets it back to zero), the touched slots are not
 * listed: `touched` is empty, and `release` zeroes the whole scratch unless `markCleared`
 * was called (a search that failed before the fused pass finished).
 */
export function lexicalScores(snapshot: IndexSnapshot, matched: readonly MatchedTerm[], scratch?: Float64Array): LexicalScores {
  if (scratch !== undefined) return untrackedLexicalScores(matched, scratch);
  let postingCount = 0;
  for (const { pieces } of matched) for (const { postings } of pieces) postingCount += postings.slots.length;
  const touched = new Uint32Array(Math.min(snapshot.count, postingCount));
  let touchedCount = 0;
  snapshot.scratch ??= new Float64Array(snapshot.count);
  const scores = snapshot.scratch;
  const release = () => {
    for (let index = 0; index < touchedCount; index += 1) scores[touched[index] as number] = 0;
    touchedCount = 0;
  };
  const markCleared = () => {
    touchedCount = 0;
  };
  if (matched.length === 0) return { scores, touched, touchedCount, release, markCleared };
  // Term by term in query order, segment by segment in slot order: each slot's sum is made in
  // the same order as over one list of the term's postings, and slots are first reached alike.
  for (const { pieces, scaled } of matched) {
    for (const { segment, postings } of pieces) {
      const { slots, frequencies } = postings;
      const norms = segment.norms();
      const { base, composed } = segment;
      const length = slots.length;
      // Two loops, so that a segment without deletions (and a snapshot of one) pays no lookup.
      if (composed === undefined) {
        for (let posting = 0; posting < length; posting += 1) {
          const own = slots[posting] as number;
          const slot = base + own;
          const frequency = frequencies[posting] as number;
          const previous = scores[slot] as number;
          if (previous === 0) touched[touchedCount++] = slot;
          scores[slot] = previous + (scaled * frequency) / (frequency + (norms[own] as number));
        }
        continue;
      }
      for (let posting = 0; posting < length; posting += 1) {
        const own = slots[posting] as number;
        const slot = composed[own] as number;
        if (slot < 0) continue;
        const frequency = frequencies[posting] as number;
        const previous = scores[slot] as number;
        if (previous === 0) touched[touchedCount++] = slot;
        scores[slot] = previous + (scaled * frequency) / (frequency + (norms[own] as number));
      }
    }
  }
  return { scores, touched, touchedCount, release, markCleared };
}

/**
 * The same sums into `scores`, without the list of touched slots (the same additions, in the
 * same order): on the WebAssembly kernel where it pays (`sumLexicalOnKernel`), else here.
 */
function untrackedLexicalScores(matched: readonly MatchedTerm[], scores: Float64Array): LexicalScores {
  let dirty = matched.length > 0;
  const release = () => {
    if (dirty) scores.fill(0);
    dirty = false;
  };
  const markCleared = () => {
    dirty = false;
  };
  const result = { scores, touched: new Uint32Array(0), touchedCount: 0, release, markCleared };
  if (!dirty || sumLexicalOnKernel(matched, scores)) return result;
  for (const { pieces, scaled } of matched) {
    for (const { segment, postings } of pieces) {
      const { slots, frequencies } = postings;
      const norms = segment.norms();
      const { base, composed } = segment;
      const length = slots.length;
      if (composed === undefined) {
        for (let posting = 0; posting < length; posting += 1) {
          const own = slots[posting] as number;
          const frequency = frequencies[posting] as number;
          scores[base + own] = (scores[base + own] as number) + (scaled * frequency) / (frequency + (norms[own] as number));
        }
        continue;
      }
      for (let posting = 0; posting < length; posting += 1) {
        const own = slots[posting] as number;
        const slot = composed[own] as number;
        if (slot < 0) continue;
        const frequency = frequencies[posting] as number;
        scores[slot] = (scores[slot] as number) + (scaled * frequency) / (frequency + (norms[own] as number));
      }
    }
  }
  return result;
}
