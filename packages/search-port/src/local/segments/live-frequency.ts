import { firstAtLeast } from "../lexical/first-at-least.js";

/**
 * How many of a term's postings `slots` (a part's own slots, ascending) are live: all but those
 * in `deleted` (the part's deleted slots, ascending; undefined: none). The shorter list is
 * walked and each of its slots searched for in the longer one from where the last was found,
 * so a few deletions cost a few binary searches however long the list.
 */
export function liveFrequency(slots: Uint32Array, deleted: Uint32Array | undefined): number {
  if (deleted === undefined || deleted.length === 0 || slots.length === 0) return slots.length;
  const [short, long] = deleted.length <= slots.length ? [deleted, slots] : [slots, deleted];
  let gone = 0;
  let from = 0;
  for (let index = 0; index < short.length; index += 1) {
    const slot = short[index] as number;
    from = firstAtLeast(long, from, long.length, slot);
    if (from === long.length) break;
    if (long[from] === slot) gone += 1;
  }
  return slots.length - gone;
}
