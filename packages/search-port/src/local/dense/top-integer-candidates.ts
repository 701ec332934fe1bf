/**
 * The slots of the `limit` highest `scores` (all of them when there are fewer), in
 * increasing slot order; ties at the cut go to the lower slots, as `topCandidates` breaks
 * them. For integer scores in `lowest..highest` (a small range, as the sketch's estimates
 * are): one pass counts each value, the cut value is read off the counts, and a second pass
 * collects the slots above it and, at it, the first ones. Two linear passes, no heap.
 */
export function topIntegerCandidates(scores: Int32Array, limit: number, lowest: number, highest: number): Int32Array {
  const count = scores.length;
  if (limit >= count) return Int32Array.from({ length: count }, (_, slot) => slot);
  const result = new Int32Array(Math.max(0, limit));
  if (limit <= 0) return result;
  const counts = new Int32Array(highest - lowest + 1);
  for (let slot = 0; slot < count; slot += 1) {
    const at = (scores[slot] as number) - lowest;
    counts[at] = (counts[at] as number) + 1;
  }
  // The cut: the value at which the best `limit` slots end, and how many of that value to take.
  let cut = counts.length - 1;
  let above = 0;
  while (above + (counts[cut] as number) < limit) {
    above += counts[cut] as number;
    cut -= 1;
  }
  let atCut = limit - above;
  const cutValue = cut + lowest;
  let size = 0;
  for (let slot = 0; slot < count; slot += 1) {
    const score = scores[slot] as number;
    if (score > cutValue || (score === cutValue && atCut-- > 0)) {
      result[size] = slot;
      size += 1;
    }
  }
  return result;
}
