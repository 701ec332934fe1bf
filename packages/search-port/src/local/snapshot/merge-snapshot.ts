import { DenseMatrix } from "../dense/dense-matrix.js";
import { firstAtLeast } from "../lexical/first-at-least.js";
import { memorySnapshot } from "./index-snapshot.js";
import type { IndexSnapshot, MemoryRecord } from "./index-snapshot.js";
import { findTerm } from "../lexical/lexicon.js";
import type { PendingChanges } from "./pending-changes.js";

/**
 * A new snapshot: the base without its removed slots, then the pending records, with the
 * lexicon, postings and vectors merged (nothing is re-tokenised or re-embedded). Surviving
 * slots keep their order, so every term's postings stay sorted by slot. Terms left without
 * postings are dropped. `dimension` 0 means no vectors.
 *
 * One pass over the postings: a term whose postings hold no removed slot is copied in bulk
 * (shifted down by the removed slots before it), others posting by posting.
 */
export function mergeSnapshot(base: IndexSnapshot, pending: PendingChanges, dimension: number): IndexSnapshot {
  const { ids: baseIds, docIds: baseDocIds } = base.keys.arrays();
  const baseLexical = base.lexicon.arrays();
  const removed = pending.removed;
  // removedBefore[slot]: how many removed slots come before `slot`; a survivor moves down by that much.
  const removedBefore = new Uint32Array(base.count + 1);
  for (let slot = 0; slot < base.count; slot += 1) {
    removedBefore[slot + 1] = (removedBefore[slot] as number) + (removed[slot] === 1 ? 1 : 0);
  }
  const survivors = base.count - (removedBefore[base.count] as number);
  // Few removed slots are listed, so postings can be copied in runs between them; with
  // more, each posting is checked on its own (`segmented` false).
  const segmented = base.count - survivors <= segmentedCopyLimit;
  const removedSlots: number[] = [];
  if (segmented) {
    for (let slot = 0; slot < base.count; slot += 1) if (removed[slot] === 1) removedSlots.push(slot);
  }
  const added = [...pending.added.values()];
  const count = survivors + added.length;

  const ids: string[] = new Array<string>(count);
  const docIds: Array<string | null> = new Array<string | null>(count);
  const fileSlots = new Int32Array(count);
  const memory: Array<MemoryRecord | undefined> = new Array<MemoryRecord | undefined>(count);
  const lengths = new Uint32Array(count);
  let totalLength = 0;
  for (let slot = 0, target = 0; slot < base.count; slot += 1) {
    if (removed[slot] === 1) continue;
    ids[target] = baseIds[slot] as string;
    docIds[target] = baseDocIds[slot] ?? null;
    fileSlots[target] = base.records.fileSlots[slot] ?? -1;
    memory[target] = base.records.memory[slot];
    const length = baseLexical.lengths[slot] as number;
    lengths[target] = length;
    totalLength += length;
    target += 1;
  }
  added.forEach((record, index) => {
    const target = survivors + index;
    ids[target] = record.id;
    docIds[target] = record.docId;
    fileSlots[target] = -1;
    memory[target] = { content: record.content, metadataText: record.metadataText };
    lengths[target] = record.length;
    totalLength += record.length;
  });

  // The merged lexicon: the base terms and the new ones, in sorted order.
  const baseTerms = baseLexical.terms;
  const pendingTerms = pending.dictionaryTerms;
  const pendingToBase = new Int32Array(pendingTerms.length);
  const newTerms: number[] = [];
  pendingTerms.forEach((term, index) => {
    const found = findTerm(baseTerms, term);
    pendingToBase[index] = found;
    if (found < 0) newTerms.push(index);
  });
  newTerms.sort((left, right) => compareStrings(pendingTerms[left] as string, pendingTerms[right] as string));
  const mergedTerms: string[] = [];
  const mergedToBase: number[] = [];
  const baseToMerged = new Int32Array(baseTerms.length);
  const pendingToMerged = new Int32Array(pendingTerms.length);
  let baseIndex = 0;
  let newIndex = 0;
  while (baseIndex < baseTerms.length || newIndex < newTerms.length) {
    const baseTerm = baseTerms[baseIndex];
    const newTermId = newTerms[newIndex];
    const newTerm = newTermId === undefined ? undefined : pendingTerms[newTermId];
    if (newTerm === undefined || (baseTerm !== undefined && baseTerm < newTerm)) {
      baseToMerged[baseIndex] = mergedTerms.length;
      mergedToBase.push(baseIndex);
      mergedTerms.push(baseTerm as string);
      baseIndex += 1;
    } else {
      pendingToMerged[newTermId as number] = mergedTerms.length;
      mergedToBase.push(-1);
      mergedTerms.push(newTerm);
      newIndex += 1;
    }
  }
  pendingTerms.forEach((_, index) => {
    const found = pendingToBase[index] as number;
    if (found >= 0) pendingToMerged[index] = baseToMerged[found] as number;
  });

  // The added records' postings, grouped by merged term, in slot order within a term.
  const addedStarts = new Uint32Array(mergedTerms.length + 1);
  for (const record of added) {
    for (const term of record.terms) {
      const merged = (pendingToMerged[term] as number) + 1;
      addedStarts[merged] = (addedStarts[merged] as number) + 1;
    }
  }
  for (let merged = 0; merged < mergedTerms.length; merged += 1) {
    addedStarts[merged + 1] = (addedStarts[merged + 1] as number) + (addedStarts[merged] as number);
  }
  const addedTotal = addedStarts[mergedTerms.length] as number;
  const addedSlots = new Uint32Array(addedTotal);
  const addedFrequencies = new Uint16Array(addedTotal);
  const addedCursors = addedStarts.slice(0, mergedTerms.length);
  added.forEach((record, index) => {
    for (let position = 0; position < record.terms.length; position += 1) {
      const merged = pendingToMerged[record.terms[position] as number] as number;
      const cursor = addedCursors[merged] as number;
      addedSlots[cursor] = survivors + index;
      addedFrequencies[cursor] = record.frequencies[position] as number;
      addedCursors[merged] = cursor + 1;
    }
  });

  const { termStarts: baseStarts, postingSlots: baseSlots, postingFrequencies: baseFrequencies } = baseLexical;
  const capacity = baseSlots.length + addedTotal;
  let postingSlots = new Uint32Array(capacity);
  let postingFrequencies = new Uint16Array(capacity);
  const termStartsAll = new Uint32Array(mergedTerms.length + 1);
  const terms: string[] = [];
  let cursor = 0;
  for (let merged = 0; merged < mergedTerms.length; merged += 1) {
    const start = cursor;
    const baseTerm = mergedToBase[merged] as number;
    if (baseTerm >= 0) {
      const from = baseStarts[baseTerm] as number;
      const to = baseStarts[baseTerm + 1] as number;
      if (from < to) {
        const first = baseSlots[from] as number;
        const last = baseSlots[to - 1] as number;
        const shift = removedBefore[first] as number;
        if (removedBefore[last + 1] === shift) {
          // No removed slot from the first posting to the last: copy, moved down by `shift`.
          if (shift === 0) {
            postingSlots.set(baseSlots.subarray(from, to), cursor);
          } else {
            for (let posting = from; posting < to; posting += 1)
              postingSlots[cursor + posting - from] = (baseSlots[posting] as number) - shift;
          }
          postingFrequencies.set(baseFrequencies.subarray(from, to), cursor);
          cursor += to - from;
        } else if (segmented) {
          // Few removed slots: copy the runs between them, each moved down by its own shift.
          let segmentStart = from;
          for (const removedSlot of removedSlots) {
            if (removedSlot < first) continue;
            if (removedSlot > last) break;
            const at = firstAtLeast(baseSlots, segmentStart, to, removedSlot);
            cursor = copyShifted(baseSlots, baseFrequencies, segmentStart, at, postingSlots, postingFrequencies, cursor, removedBefore);
            segmentStart = at < to && baseSlots[at] === removedSlot ? at + 1 : at;
          }
          cursor = copyShifted(baseSlots, baseFrequencies, segmentStart, to, postingSlots, postingFrequencies, cursor, removedBefore);
        } else {
          for (let posting = from; posting < to; posting += 1) {
            const slot = baseSlots[posting] as number;
            if (removed[slot] === 1) continue;
            postingSlots[cursor] = slot - (removedBefore[slot] as number);
            postingFrequencies[cursor] = baseFrequencies[posting] as number;
            cursor += 1;
          }
        }
      }
    }
    const addedFrom = addedStarts[merged] as number;
    const addedTo = addedStarts[merged + 1] as number;
    if (addedTo > addedFrom) {
      postingSlots.set(addedSlots.subarray(addedFrom, addedTo), cursor);
      postingFrequencies.set(addedFrequencies.subarray(addedFrom, addedTo), cursor);
      cursor += addedTo - addedFrom;
    }
    if (cursor > start) {
      terms.push(mergedTerms[merged] as string);
      termStartsAll[terms.length] = cursor;
    }
  }
  if (cursor < capacity) {
    // The gap is the removed postings: keep views unless it is large enough to be worth a copy.
    const keep = capacity - cursor < capacity / 8;
    postingSlots = keep ? postingSlots.subarray(0, cursor) : postingSlots.slice(0, cursor);
    postingFrequencies = keep ? postingFrequencies.subarray(0, cursor) : postingFrequencies.slice(0, cursor);
  }
  const termStarts = termStartsAll.slice(0, terms.length + 1);

  let vectors: DenseMatrix | undefined;
  if (dimension > 0) {
    vectors = new DenseMatrix(count, dimension);
    const from = base.vectors;
    if (from !== undefined && from.dimension === dimension) {
      // Copy runs of surviving rows in bulk.
      let slot = 0;
      while (slot < base.count) {
        if (removed[slot] === 1) {
          slot += 1;
          continue;
        }
        let end = slot + 1;
        while (end < base.count && removed[end] !== 1) end += 1;
        vectors.copyRows(from, slot, slot - (removedBefore[slot] as number), end - slot);
        slot = end;
      }
    }
    added.forEach((record, index) => {
      if (record.codes !== undefined) vectors?.setRow(survivors + index, record.codes, record.inverseNorm);
    });
  }

  return memorySnapshot({
    count,
    ids,
    docIds,
    lexical: { terms, termStarts, postingSlots, postingFrequencies, lengths, totalLength },
    vectors,
    records: { file: base.records.file, fileSlots, memory },
  });
}

/** Up to this many removed slots, postings are copied in runs between them. */
const segmentedCopyLimit = 64;

/** Copies postings [from, to), which hold no removed slot, moving their slots down; returns the new cursor. */
function copyShifted(
  slots: Uint32Array,
  frequencies: Uint16Array,
  from: number,
  to: number,
  targetSlots: Uint32Array,
  targetFrequencies: Uint16Array,
  cursor: number,
  removedBefore: Uint32Array,
): number {
  if (to <= from) return cursor;
  const shift = removedBefore[slots[from] as number] as number;
  if (shift === 0) {
    targetSlots.set(slots.subarray(from, to), cursor);
  } else {
    for (let posting = from; posting < to; posting += 1) targetSlots[cursor + posting - from] = (slots[posting] as number) - shift;
  }
  targetFrequencies.set(frequencies.subarray(from, to), cursor);
  return cursor + (to - from);
}

function compareStrings(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
