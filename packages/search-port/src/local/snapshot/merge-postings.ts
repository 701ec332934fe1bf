import { firstAtLeast } from "../lexical/first-at-least.js";
import type { AddedPostings } from "./added-postings.js";
import type { LexicalIndex } from "./index-snapshot.js";
import type { MergedTerms } from "./merge-term-dictionary.js";
import type { RemovedSlots } from "./removed-slots.js";

/** Where merged postings are written. */
interface PostingsTarget {
  slots: Uint32Array;
  frequencies: Uint16Array;
}

/**
 * The merged postings, in one pass: per merged term the base's postings without the removed
 * slots (a term whose postings hold no removed slot is copied in bulk, shifted down by the
 * removed slots before it; others in runs or posting by posting), then the added ones.
 * Terms left without postings are dropped.
 */
export function mergePostings(
  base: LexicalIndex,
  removal: RemovedSlots,
  merged: MergedTerms,
  added: AddedPostings,
): Pick<LexicalIndex, "terms" | "termStarts" | "postingSlots" | "postingFrequencies"> {
  const capacity = base.postingSlots.length + added.slots.length;
  const target: PostingsTarget = { slots: new Uint32Array(capacity), frequencies: new Uint16Array(capacity) };
  const termStartsAll = new Uint32Array(merged.terms.length + 1);
  const terms: string[] = [];
  let cursor = 0;
  for (let term = 0; term < merged.terms.length; term += 1) {
    const start = cursor;
    const baseTerm = merged.toBase[term] as number;
    if (baseTerm >= 0) {
      cursor = copyBaseTerm(base, base.termStarts[baseTerm] as number, base.termStarts[baseTerm + 1] as number, removal, target, cursor);
    }
    const addedFrom = added.starts[term] as number;
    const addedTo = added.starts[term + 1] as number;
    if (addedTo > addedFrom) {
      target.slots.set(added.slots.subarray(addedFrom, addedTo), cursor);
      target.frequencies.set(added.frequencies.subarray(addedFrom, addedTo), cursor);
      cursor += addedTo - addedFrom;
    }
    if (cursor > start) {
      terms.push(merged.terms[term] as string);
      termStartsAll[terms.length] = cursor;
    }
  }
  let postingSlots = target.slots;
  let postingFrequencies = target.frequencies;
  if (cursor < capacity) {
    // The gap is the removed postings: keep views unless it is large enough to be worth a copy.
    const keep = capacity - cursor < capacity / 8;
    postingSlots = keep ? postingSlots.subarray(0, cursor) : postingSlots.slice(0, cursor);
    postingFrequencies = keep ? postingFrequencies.subarray(0, cursor) : postingFrequencies.slice(0, cursor);
  }
  return { terms, termStarts: termStartsAll.slice(0, terms.length + 1), postingSlots, postingFrequencies };
}

/** Copies the base's postings [from, to) of one term without the removed slots, each moved down; returns the new cursor. */
function copyBaseTerm(base: LexicalIndex, from: number, to: number, removal: RemovedSlots, target: PostingsTarget, cursor: number): number {
  if (from >= to) return cursor;
  const { postingSlots: baseSlots, postingFrequencies: baseFrequencies } = base;
  const { removed, removedBefore, listed } = removal;
  const first = baseSlots[from] as number;
  const last = baseSlots[to - 1] as number;
  const shift = removedBefore[first] as number;
  if (removedBefore[last + 1] === shift) {
    // No removed slot from the first posting to the last: copy, moved down by `shift`.
    if (shift === 0) {
      target.slots.set(baseSlots.subarray(from, to), cursor);
    } else {
      for (let posting = from; posting < to; posting += 1) target.slots[cursor + posting - from] = (baseSlots[posting] as number) - shift;
    }
    target.frequencies.set(baseFrequencies.subarray(from, to), cursor);
    return cursor + (to - from);
  }
  if (listed !== undefined) {
    // Few removed slots: copy the runs between them, each moved down by its own shift.
    let segmentStart = from;
    for (const removedSlot of listed) {
      if (removedSlot < first) continue;
      if (removedSlot > last) break;
      const at = firstAtLeast(baseSlots, segmentStart, to, removedSlot);
      cursor = copyShifted(baseSlots, baseFrequencies, segmentStart, at, target, cursor, removedBefore);
      segmentStart = at < to && baseSlots[at] === removedSlot ? at + 1 : at;
    }
    return copyShifted(baseSlots, baseFrequencies, segmentStart, to, target, cursor, removedBefore);
  }
  for (let posting = from; posting < to; posting += 1) {
    const slot = baseSlots[posting] as number;
    if (removed[slot] === 1) continue;
    target.slots[cursor] = slot - (removedBefore[slot] as number);
    target.frequencies[cursor] = baseFrequencies[posting] as number;
    cursor += 1;
  }
  return cursor;
}

/** Copies postings [from, to), which hold no removed slot, moving their slots down; returns the new cursor. */
function copyShifted(
  slots: Uint32Array,
  frequencies: Uint16Array,
  from: number,
  to: number,
  target: PostingsTarget,
  cursor: number,
  removedBefore: Uint32Array,
): number {
  if (to <= from) return cursor;
  const shift = removedBefore[slots[from] as number] as number;
  if (shift === 0) {
    target.slots.set(slots.subarray(from, to), cursor);
  } else {
    for (let posting = from; posting < to; posting += 1) target.slots[cursor + posting - from] = (slots[posting] as number) - shift;
  }
  target.frequencies.set(frequencies.subarray(from, to), cursor);
  return cursor + (to - from);
}
