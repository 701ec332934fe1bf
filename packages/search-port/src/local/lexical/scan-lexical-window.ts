import { firstAtLeast } from "./first-at-least.js";
import { partAt, seek, sortBy } from "./posting-cursor.js";
import type { PostingCursor } from "./posting-cursor.js";
import { windowShift } from "./term-score-bounds.js";
import type { TopSlots } from "./top-slots.js";

/** A safety margin for comparing sums of bounds with scores summed in another order. */
const roundingMargin = 1e-9;

/** Slots per window. */
export const windowSlots = 2 ** windowShift;

/** What the windows of one search share. */
export interface WindowScan {
  heap: TopSlots;
  norms: Float32Array;
  /** The matched terms in query order, and the same sorted for the current window. */
  inOrder: PostingCursor[];
  byBound: PostingCursor[];
  /** The current window's terms that are not essential, by bound. */
  others: PostingCursor[];
  /** By slot in the window: the essential terms' sum, and one bit per slot they reached. */
  essentialSums: Float64Array;
  reached: Int32Array;
  /** The records still in the race, ascending, with their best case. */
  candidates: Uint32Array;
  bests: Float64Array;
  /** Per term (query order), its first posting at or after the window's first slot. */
  windowStarts: Uint32Array;
  /** The heap's worst score, less the rounding margin (0 until the heap is full). */
  threshold: number;
  /** The segment searched (`LexicalSegment`): slots here are its own, offered to the heap as the snapshot's. */
  base: number;
  composed: Int32Array | undefined;
}

/**
 * Searches the slots of one window (`windowShift`), offering every record that can enter the
 * heap with its exact score. A term's bound in the window is its share times the largest
 * part it adds there; a window whose bounds cannot sum to the heap's worst score is passed
 * over. Otherwise the terms with the least bound per posting, whose bounds sum to less than
 * that worst score, cannot lift a record on their own: only the other (essential) terms'
 * postings are scored, one pass per term. A record they reach is bounded by its essential
 * part plus the others' bounds, narrowed term by term (`narrowByOthers`); a record that
 * survives is scored over the terms in query order, exactly as the full pass does.
 */
export function scanWindow(scan: WindowScan, window: number): void {
  const { inOrder, byBound, norms, essentialSums, reached, candidates, bests, windowStarts } = scan;
  let total = 0;
  for (const cursor of inOrder) {
    cursor.windowBound = cursor.scaled * (cursor.bounds.windows[window] as number);
    cursor.perPosting = cursor.windowBound / cursor.slots.length;
    total += cursor.windowBound;
  }
  if (!(total > 0) || total < scan.threshold) return;
  const start = window * windowSlots;
  const end = start + windowSlots;
  sortBy(byBound, "perPosting");
  // Terms that cannot lift a record on their own, their bounds summing to `lesser`: the
  // common ones first (the least bound per posting skipped), as long as they fit.
  const others = scan.others;
  others.length = 0;
  let lesser = 0;
  for (const cursor of byBound) {
    cursor.essential = lesser + cursor.windowBound >= scan.threshold;
    if (cursor.essential) continue;
    lesser += cursor.windowBound;
    others.push(cursor);
  }
  sortBy(others, "windowBound");
  // The essential terms' postings in the window, in query order: with no other term the sums are the exact scores.
  for (let order = 0; order < inOrder.length; order += 1) {
    const cursor = inOrder[order] as PostingCursor;
    if (cursor.essential && cursor.windowBound > 0) seek(cursor, start);
    windowStarts[order] = cursor.at;
    if (!cursor.essential || cursor.windowBound === 0) continue;
    cursor.at = addWindowParts(cursor, start, end, norms, essentialSums, reached);
  }
  // The records the essential terms reached, in slot order (their bits in `reached`), the
  // sums set back to 0. With every term essential the sums are the scores; else only the
  // records whose essential part and the others' bounds can beat the heap's worst go on.
  let kept = 0;
  for (let word = 0; word < reached.length; word += 1) {
    let bits = reached[word] as number;
    if (bits === 0) continue;
    reached[word] = 0;
    while (bits !== 0) {
      const lowest = bits & -bits;
      bits ^= lowest;
      const local = (word << 5) | (31 - Math.clz32(lowest));
      const sum = essentialSums[local] as number;
      essentialSums[local] = 0;
      if (others.length === 0) offer(scan, start + local, sum);
      else if (sum + lesser >= scan.threshold) {
        candidates[kept] = start + local;
        bests[kept] = sum;
        kept += 1;
      }
    }
  }
  if (kept === 0) return;
  kept = narrowByOthers(others, lesser, norms, candidates, bests, kept, scan.threshold);
  for (let index = 0; index < kept; index += 1) {
    const slot = candidates[index] as number;
    offer(scan, slot, exactScore(inOrder, slot, norms[slot] as number, windowStarts));
  }
}

/** Offers a slot (the segment's own) with its exact score to the heap, raising the threshold; a deleted record is passed over. */
function offer(scan: WindowScan, own: number, score: number): void {
  if (!(score > 0)) return;
  const slot = scan.composed === undefined ? scan.base + own : (scan.composed[own] as number);
  if (slot < 0 || !scan.heap.wouldEnter(slot, score)) return;
  scan.heap.push(slot, score, score, 0);
  scan.threshold = scan.heap.threshold() * (1 - roundingMargin);
}

/**
 * Adds the term's part of each record holding it in the window (slots `start` to `end`)
 * to `sums` and sets the record's bit in `reached`; returns the term's first posting past
 * the window.
 */
function addWindowParts(
  cursor: PostingCursor,
  start: number,
  end: number,
  norms: Float32Array,
  sums: Float64Array,
  reached: Int32Array,
): number {
  const { slots, frequencies, scaled } = cursor;
  let at = cursor.at;
  for (; at < slots.length; at += 1) {
    const slot = slots[at] as number;
    if (slot >= end) break;
    const frequency = frequencies[at] as number;
    const local = slot - start;
    reached[local >>> 5] = (reached[local >>> 5] as number) | (1 << (local & 31));
    sums[local] = (sums[local] as number) + (scaled * frequency) / (frequency + (norms[slot] as number));
  }
  return at;
}

/**
 * Keeps, of the `count` slots in `candidates` (ascending; `bests`: their essential parts),
 * those the terms in `others` (ascending by window bound, summing to `lesser`) can lift to
 * `threshold`. Each slot's
 * best case starts as its essential part plus the others' window bounds; one term at a time,
 * from the largest bound down, the term's window bound is replaced by its block bound and,
 * when the slot can still reach the threshold, by its exact part, and the slots that cannot
 * are dropped (each pass walks one term's postings forward). Returns how many are kept, at
 * the start of both arrays.
 */
function narrowByOthers(
  others: readonly PostingCursor[],
  lesser: number,
  norms: Float32Array,
  candidates: Uint32Array,
  bests: Float64Array,
  count: number,
  threshold: number,
): number {
  let kept = count;
  for (let candidate = 0; candidate < kept; candidate += 1) bests[candidate] = (bests[candidate] as number) + lesser;
  for (let index = others.length - 1; index >= 0 && kept > 0; index -= 1) {
    const cursor = others[index] as PostingCursor;
    const { blocks, blockLast } = cursor.bounds;
    const { windowBound, scaled } = cursor;
    if (windowBound === 0) continue;
    let block = cursor.block;
    let survivors = 0;
    for (let candidate = 0; candidate < kept; candidate += 1) {
      const slot = candidates[candidate] as number;
      while (block < blocks.length && (blockLast[block] as number) < slot) block += 1;
      let best = (bests[candidate] as number) - windowBound;
      if (block < blocks.length) {
        if (best + Math.min(windowBound, scaled * (blocks[block] as number)) < threshold) continue;
        best += partAt(cursor, slot, norms[slot] as number);
      }
      if (best < threshold) continue;
      candidates[survivors] = slot;
      bests[survivors] = best;
      survivors += 1;
    }
    cursor.block = block;
    kept = survivors;
  }
  return kept;
}

/**
 * The record's score, summed over the terms in query order as the full pass sums it; each
 * term's posting is searched from `windowStarts` (its first posting in the window).
 */
function exactScore(inOrder: readonly PostingCursor[], slot: number, norm: number, windowStarts: Uint32Array): number {
  let score = 0;
  for (let order = 0; order < inOrder.length; order += 1) {
    const cursor = inOrder[order] as PostingCursor;
    const { slots } = cursor;
    const at = firstAtLeast(slots, windowStarts[order] as number, slots.length, slot);
    if (slots[at] !== slot) continue;
    const frequency = cursor.frequencies[at] as number;
    score = score + (cursor.scaled * frequency) / (frequency + norm);
  }
  return score;
}
