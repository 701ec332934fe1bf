import type { Postings } from "../lexical/lexicon.js";

/** Where postings gathered from several parts are written. */
export interface PostingsTarget {
  slots: Uint32Array;
  frequencies: Uint16Array;
}

/**
 * Appends one part's postings to `target` at `cursor`, their slots turned into composed slots:
 * `base + slot` for a part without deletions (copied in bulk), else through `composed` (the
 * part's slot -> composed slot table, -1 for a deleted record, whose postings are left out).
 * Returns the new cursor. Ascending part slots stay ascending.
 */
export function appendLivePostings(
  target: PostingsTarget,
  cursor: number,
  postings: Postings,
  base: number,
  composed: Int32Array | undefined,
): number {
  const { slots, frequencies } = postings;
  const length = slots.length;
  if (composed === undefined) {
    if (base === 0) target.slots.set(slots, cursor);
    else {
      const into = target.slots;
      for (let posting = 0; posting < length; posting += 1) into[cursor + posting] = (slots[posting] as number) + base;
    }
    target.frequencies.set(frequencies, cursor);
    return cursor + length;
  }
  let at = cursor;
  for (let posting = 0; posting < length; posting += 1) {
    const slot = composed[slots[posting] as number] ?? -1;
    if (slot < 0) continue;
    target.slots[at] = slot;
    target.frequencies[at] = frequencies[posting] as number;
    at += 1;
  }
  return at;
}
