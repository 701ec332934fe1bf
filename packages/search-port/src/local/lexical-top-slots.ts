import type { IndexSnapshot } from "./index-snapshot.js";
import { TopSlots } from "./top-slots.js";
import type { MatchedTerm } from "./weigh-query-terms.js";
import { lengthNorms } from "./weigh-query-terms.js";

/** A safety margin for comparing sums of bounds with scores summed in another order. */
const roundingMargin = 1e-9;

interface Cursor {
  slots: Uint32Array;
  frequencies: Uint16Array;
  scaled: number;
  at: number;
}

/**
 * The best `limit` slots by lexical score alone, with no filter: the same slots, scores
 * and order as scoring every posting (`lexicalScores`), found while skipping most postings
 * of common terms (MaxScore, Turtle and Flood 1995). Every matched term adds less than its
 * `scaled` share to a record. Once the heap is full, the terms with the smallest shares
 * whose shares sum to less than the worst kept score cannot lift a record into the heap on
 * their own: records are then drawn only from the other terms' postings, and the common
 * terms' postings are searched for those records instead of walked. Each record's score is
 * still summed over the terms in query order, so it is exactly the score the full pass gives;
 * a record whose essential terms' part plus the others' bound cannot enter the heap is
 * passed over before the common terms' postings are searched for it.
 */
export function lexicalTopSlots(snapshot: IndexSnapshot, matched: readonly MatchedTerm[], limit: number): TopSlots {
  const heap = new TopSlots(limit, snapshot.keys);
  if (matched.length === 0) return heap;
  const norms = lengthNorms(snapshot);
  const inOrder: Cursor[] = matched.map(({ postings, scaled }) => ({
    slots: postings.slots,
    frequencies: postings.frequencies,
    scaled,
    at: 0,
  }));
  const byShare = [...inOrder].sort((left, right) => left.scaled - right.scaled);
  // bound[i]: the sum of the shares of byShare[0..i].
  const bound = new Float64Array(byShare.length);
  byShare.reduce((sum, cursor, index) => {
    bound[index] = sum + cursor.scaled;
    return bound[index] as number;
  }, 0);
  const essential = new Uint8Array(inOrder.length).fill(1);
  let firstEssential = 0;
  for (;;) {
    let candidate = Number.POSITIVE_INFINITY;
    for (let index = firstEssential; index < byShare.length; index += 1) {
      const cursor = byShare[index] as Cursor;
      if (cursor.at < cursor.slots.length) candidate = Math.min(candidate, cursor.slots[cursor.at] as number);
    }
    if (candidate === Number.POSITIVE_INFINITY) break;
    const slot = candidate;
    const norm = norms[slot] as number;
    if (firstEssential > 0) {
      // The essential terms' part plus the most the others could add: when that cannot beat
      // the heap's worst, the record is passed over without searching the others' postings.
      let bestCase = bound[firstEssential - 1] as number;
      for (let index = firstEssential; index < byShare.length; index += 1) {
        const cursor = byShare[index] as Cursor;
        if (cursor.at < cursor.slots.length && cursor.slots[cursor.at] === slot) {
          const frequency = cursor.frequencies[cursor.at] as number;
          bestCase += (cursor.scaled * frequency) / (frequency + norm);
        }
      }
      if (bestCase < heap.threshold() * (1 - roundingMargin)) {
        for (let index = firstEssential; index < byShare.length; index += 1) {
          const cursor = byShare[index] as Cursor;
          if (cursor.at < cursor.slots.length && cursor.slots[cursor.at] === slot) cursor.at += 1;
        }
        continue;
      }
    }
    let score = 0;
    for (let term = 0; term < inOrder.length; term += 1) {
      const cursor = inOrder[term] as Cursor;
      if (essential[term] === 0) seek(cursor, slot);
      if (cursor.at < cursor.slots.length && cursor.slots[cursor.at] === slot) {
        const frequency = cursor.frequencies[cursor.at] as number;
        score = score + (cursor.scaled * frequency) / (frequency + norm);
        if (essential[term] === 1) cursor.at += 1;
      }
    }
    if (!(score > 0) || !heap.wouldEnter(slot, score)) continue;
    heap.push(slot, score, score, 0);
    const threshold = heap.threshold() * (1 - roundingMargin);
    while (firstEssential < byShare.length && (bound[firstEssential] as number) < threshold) {
      essential[inOrder.indexOf(byShare[firstEssential] as Cursor)] = 0;
      firstEssential += 1;
    }
  }
  return heap;
}

/** Moves `cursor` to its first posting at or after `slot` (galloping, then binary search). */
function seek(cursor: Cursor, slot: number): void {
  const { slots } = cursor;
  let low = cursor.at;
  if (low >= slots.length || (slots[low] as number) >= slot) return;
  let step = 1;
  let high = low + 1;
  while (high < slots.length && (slots[high] as number) < slot) {
    low = high;
    step *= 2;
    high = low + step;
  }
  high = Math.min(high, slots.length);
  // slots[low] < slot; the answer is in (low, high].
  let first = low + 1;
  while (first < high) {
    const middle = (first + high) >>> 1;
    if ((slots[middle] as number) < slot) first = middle + 1;
    else high = middle;
  }
  cursor.at = first;
}
