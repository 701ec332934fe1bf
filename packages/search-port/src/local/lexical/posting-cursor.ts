import { firstAtLeast } from "./first-at-least.js";
import type { TermScoreBounds } from "./term-score-bounds.js";

/** A matched term's place in its postings during a lexical search (lexical-top-slots.ts). */
export interface PostingCursor {
  slots: Uint32Array;
  frequencies: Uint16Array;
  /** The term's largest possible share of the lexical score (`MatchedTerm.scaled`). */
  scaled: number;
  /** The next posting to look at. */
  at: number;
  bounds: TermScoreBounds;
  /** The block of `bounds.blocks` the last block bound was read from. */
  block: number;
  /** The most the term adds to a record of the current window, and that per posting of the term. */
  windowBound: number;
  perPosting: number;
  /** Whether the term's postings in the current window are all scored (it is essential there). */
  essential: boolean;
}

/** The term's part of `slot`'s score (0 when the record does not hold it), its cursor moved up to `slot`. */
export function partAt(cursor: PostingCursor, slot: number, norm: number): number {
  seek(cursor, slot);
  if (cursor.slots[cursor.at] !== slot) return 0;
  const frequency = cursor.frequencies[cursor.at] as number;
  return (cursor.scaled * frequency) / (frequency + norm);
}

/** Moves `cursor` to its first posting at or after `slot` (galloping, then binary search). */
export function seek(cursor: PostingCursor, slot: number): void {
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
  // slots[low] < slot; the answer is in (low, min(high, length)].
  cursor.at = firstAtLeast(slots, low + 1, Math.min(high, slots.length), slot);
}

/** Sorts a few cursors by `key`, ascending (insertion sort: they come nearly sorted from the window before). */
export function sortBy(cursors: PostingCursor[], key: "perPosting" | "windowBound"): void {
  for (let index = 1; index < cursors.length; index += 1) {
    const cursor = cursors[index] as PostingCursor;
    const value = cursor[key];
    let to = index;
    while (to > 0 && (cursors[to - 1] as PostingCursor)[key] > value) {
      cursors[to] = cursors[to - 1] as PostingCursor;
      to -= 1;
    }
    cursors[to] = cursor;
  }
}
