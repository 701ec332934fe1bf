import type { SlotMap } from "./slot-map.js";

/** The BM25 lengths of the live records of every part, in composed slot order, and their sum. */
export function liveLengths(slots: SlotMap): { lengths: Uint32Array; totalLength: number } {
  const lengths = new Uint32Array(slots.count);
  let totalLength = 0;
  slots.parts.forEach((part, index) => {
    if (slots.liveCount(index) === 0) return;
    const base = slots.bases[index] as number;
    const own = part.snapshot.lexicon.lengths();
    const live = slots.liveTable(index);
    if (live === undefined) {
      const count = part.snapshot.count;
      lengths.set(own.subarray(0, count), base);
      for (let slot = 0; slot < count; slot += 1) totalLength += own[slot] as number;
      return;
    }
    for (let at = 0; at < live.length; at += 1) {
      const length = own[live[at] as number] as number;
      lengths[base + at] = length;
      totalLength += length;
    }
  });
  return { lengths, totalLength };
}

/**
 * The sum of the live records' BM25 lengths without gathering them: a part without deletions
 * gives its own total, one with deletions its total less its deleted records' lengths.
 */
export function liveTotalLength(slots: SlotMap): number {
  let total = 0;
  slots.parts.forEach((part, index) => {
    const live = slots.liveCount(index);
    if (live === 0) return;
    const { lexicon, count } = part.snapshot;
    total += lexicon.totalLength;
    if (live === count) return;
    const lengths = lexicon.lengths();
    const deleted = part.deleted as Uint8Array;
    for (let slot = 0; slot < count; slot += 1) if (deleted[slot] === 1) total -= lengths[slot] as number;
  });
  return total;
}
