import { DenseMatrix } from "../dense/dense-matrix.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import type { PendingRecord } from "./pending-changes.js";
import type { RemovedSlots } from "./removed-slots.js";

/**
 * The vectors of a merged snapshot of `count` slots: the base's surviving rows (when the base
 * holds vectors of `dimension`), copied in runs, then the added records' codes.
 */
export function mergeVectors(
  base: IndexSnapshot,
  removal: RemovedSlots,
  added: readonly PendingRecord[],
  count: number,
  dimension: number,
): DenseMatrix {
  const { removed, removedBefore, survivors } = removal;
  const vectors = new DenseMatrix(count, dimension);
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
    if (record.codes !== undefined) vectors.setRow(survivors + index, record.codes, record.inverseNorm);
  });
  return vectors;
}
