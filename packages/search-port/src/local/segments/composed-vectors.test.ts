import { describe, expect, it } from "vitest";
import { DenseMatrix } from "../dense/dense-matrix.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { composedVectors } from "./composed-vectors.js";
import type { SegmentPart } from "./segment-part.js";
import { SlotMap } from "./slot-map.js";

/** A part of `count` records whose vectors are a matrix with row `slot` all `slot + 1`. */
function part(count: number, deleted?: number[]): SegmentPart {
  const vectors = new DenseMatrix(count, 8);
  for (let slot = 0; slot < count; slot += 1) vectors.setRow(slot, new Int8Array(vectors.stride).fill(slot + 1), 1 / (slot + 1));
  const snapshot = { count, vectors } as unknown as IndexSnapshot;
  if (deleted === undefined) return { snapshot };
  const flags = new Uint8Array(count);
  for (const slot of deleted) flags[slot] = 1;
  return { snapshot, deleted: flags };
}

const rowsOf = (matrix: DenseMatrix | undefined) =>
  Array.from({ length: matrix?.count ?? 0 }, (_, slot) => [matrix?.row(slot)[0], matrix?.inverseNorms[slot]]);

describe("composedVectors", () => {
  it("issue 36 item 5: one part holding every live record gives its own matrix, uncopied", () => {
    const only = part(3);
    expect(composedVectors(new SlotMap([only]))).toBe(only.snapshot.vectors);
    // An empty part beside it changes nothing.
    expect(composedVectors(new SlotMap([part(0), only]))).toBe(only.snapshot.vectors);
  });

  it("issue 36 item 5: a part with deletions, or several parts, are copied into one matrix of the live rows in order", () => {
    const withDeletion = part(3, [1]);
    const composed = composedVectors(new SlotMap([withDeletion]));
    expect(composed).not.toBe(withDeletion.snapshot.vectors);
    expect(rowsOf(composed)).toEqual([
      [1, 1],
      [3, Math.fround(1 / 3)],
    ]);
    const [first, second] = [part(2), part(1)];
    const both = composedVectors(new SlotMap([first, second]));
    expect(both).not.toBe(first.snapshot.vectors);
    expect(rowsOf(both)).toEqual([
      [1, 1],
      [2, 1 / 2],
      [1, 1],
    ]);
  });
});
