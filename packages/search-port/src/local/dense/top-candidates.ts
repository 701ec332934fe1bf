/**
 * The slots of the `limit` highest `scores` (all of them when there are fewer), in no
 * particular order; ties are broken towards lower slots. A bounded min-heap on typed arrays:
 * once it is full a slot costs one comparison unless it beats the heap's worst.
 * `select` limits the pass to the listed slots (all slots when absent).
 */
export function topCandidates(scores: ArrayLike<number>, limit: number, select?: ArrayLike<number>): Int32Array {
  const total = select === undefined ? scores.length : select.length;
  const capacity = Math.max(0, Math.min(limit, total));
  const heapSlots = new Int32Array(capacity);
  const heapScores = new Float64Array(capacity);
  let size = 0;
  for (let index = 0; index < total; index += 1) {
    const slot = select === undefined ? index : (select[index] as number);
    const score = scores[slot] as number;
    if (size < capacity) {
      // Sift up: the worst entry stays at the root.
      let child = size;
      size += 1;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if (!worse(score, slot, heapScores[parent] as number, heapSlots[parent] as number)) break;
        heapSlots[child] = heapSlots[parent] as number;
        heapScores[child] = heapScores[parent] as number;
        child = parent;
      }
      heapSlots[child] = slot;
      heapScores[child] = score;
    } else if (capacity > 0 && worse(heapScores[0] as number, heapSlots[0] as number, score, slot)) {
      // Sift down from the root, replacing the worst entry.
      let parent = 0;
      for (;;) {
        const left = parent * 2 + 1;
        if (left >= size) break;
        const right = left + 1;
        let next = left;
        if (
          right < size &&
          worse(heapScores[right] as number, heapSlots[right] as number, heapScores[left] as number, heapSlots[left] as number)
        ) {
          next = right;
        }
        if (!worse(heapScores[next] as number, heapSlots[next] as number, score, slot)) break;
        heapSlots[parent] = heapSlots[next] as number;
        heapScores[parent] = heapScores[next] as number;
        parent = next;
      }
      heapSlots[parent] = slot;
      heapScores[parent] = score;
    }
  }
  return heapSlots.subarray(0, size);
}

/** Whether (score, slot) ranks below (otherScore, otherSlot): a lower score, or the same with a higher slot. */
function worse(score: number, slot: number, otherScore: number, otherSlot: number): boolean {
  return score < otherScore || (score === otherScore && slot > otherSlot);
}
