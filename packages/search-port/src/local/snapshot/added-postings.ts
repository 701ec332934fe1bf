import type { PendingRecord } from "./pending-changes.js";

/** The postings of records added by a merge, grouped by merged term. */
export interface AddedPostings {
  /** Where each merged term's postings start; `termCount + 1` entries. */
  starts: Uint32Array;
  slots: Uint32Array;
  frequencies: Uint16Array;
}

/**
 * The added records' postings, grouped by merged term (`fromPending`: a pending term's merged
 * index), in slot order within a term; the first added record takes slot `firstSlot`.
 */
export function addedPostings(
  added: readonly PendingRecord[],
  fromPending: Int32Array,
  termCount: number,
  firstSlot: number,
): AddedPostings {
  const starts = new Uint32Array(termCount + 1);
  for (const record of added) {
    for (const term of record.terms) {
      const merged = (fromPending[term] as number) + 1;
      starts[merged] = (starts[merged] as number) + 1;
    }
  }
  for (let merged = 0; merged < termCount; merged += 1) {
    starts[merged + 1] = (starts[merged + 1] as number) + (starts[merged] as number);
  }
  const total = starts[termCount] as number;
  const slots = new Uint32Array(total);
  const frequencies = new Uint16Array(total);
  const cursors = starts.slice(0, termCount);
  added.forEach((record, index) => {
    for (let position = 0; position < record.terms.length; position += 1) {
      const merged = fromPending[record.terms[position] as number] as number;
      const cursor = cursors[merged] as number;
      slots[cursor] = firstSlot + index;
      frequencies[cursor] = record.frequencies[position] as number;
      cursors[merged] = cursor + 1;
    }
  });
  return { starts, slots, frequencies };
}
