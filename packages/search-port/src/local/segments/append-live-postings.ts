import type { Postings } from "../lexical/lexicon.js";

/** Where postings gathered from several parts are written. */
export interface PostingsTarget {
  slots: Uint32Array;
  frequencies: Uint16Array;
}

/**
 * Appends postings `from` to `to` of one part's `source` to `target` at `cursor`, their slots
 * turned into composed slots: `base + slot` for a part without deletions, else through
 * `composed` (the part's slot -> composed slot table, -1 for a deleted record, whose postings
 * are left out). Returns the new cursor. Ascending part slots stay ascending.
 */
export function appendLivePostings(
  target: PostingsTarget,
  cursor: number,
  source: Postings,
  range: { from: number; to: number },
  mapping: { base: number; composed: Int32Array | undefined },
): number {
  const { slots, frequencies } = source;
  const { from, to } = range;
  const { base, composed } = mapping;
  const into = target.slots;
  if (composed === undefined) {
    if (base === 0) into.set(from === 0 && to === slots.length ? slots : slots.subarray(from, to), cursor);
    else for (let posting = from; posting < to; posting += 1) into[cursor + posting - from] = (slots[posting] as number) + base;
    target.frequencies.set(from === 0 && to === frequencies.length ? frequencies : frequencies.subarray(from, to), cursor);
    return cursor + (to - from);
  }
  let at = cursor;
  for (let posting = from; posting < to; posting += 1) {
    const slot = composed[slots[posting] as number] ?? -1;
    if (slot < 0) continue;
    into[at] = slot;
    target.frequencies[at] = frequencies[posting] as number;
    at += 1;
  }
  return at;
}
