import { describe, expect, it } from "vitest";
import { DenseMatrix } from "../dense/dense-matrix.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { composedVectors } from "./composed-vectors.js";
import type { SegmentPart } from "./segment-part.js";
import { SlotMap } from "./slot-map.js";

const dimension = 8;

/** Vectors whose row `slot` is all `first + slot`, with inverse norm `first + slot`. */
function matrixFrom(first: number, count: number): DenseMatrix {
  const matrix = new DenseMatrix(count, dimension);
  for (let slot = 0; slot < count; slot += 1) matrix.setRow(slot, new Int8Array(matrix.stride).fill(first + slot), first + slot);
  return matrix;
}

/** A segment as a reader opens it: vectors in a file, read whole (`readVectors`) or into a composed matrix (`readVectorsInto`). */
function filePart(first: number, count: number, deleted?: number[]) {
  const calls = { whole: 0, into: [] as number[] };
  const file = matrixFrom(first, count);
  const snapshot = {
    count,
    get vectors() {
      throw new Error("a composed index must not keep a part's vectors");
    },
    readVectors: () => {
      calls.whole += 1;
      return matrixFrom(first, count);
    },
    fileVectorDimension: dimension,
    readVectorsInto: (target: DenseMatrix, firstRow: number) => {
      calls.into.push(firstRow);
      target.copyRows(file, 0, firstRow, count);
    },
  } as unknown as IndexSnapshot;
  const part: SegmentPart = { snapshot };
  if (deleted !== undefined) {
    part.deleted = new Uint8Array(count);
    for (const slot of deleted) part.deleted[slot] = 1;
  }
  return { part, calls };
}

const rowsOf = (matrix: DenseMatrix | undefined) =>
  Array.from({ length: matrix?.count ?? 0 }, (_, slot) => [matrix?.row(slot)[0], matrix?.inverseNorms[slot]]);

describe("composedVectors", () => {
  it("issue 36 item 5: a segment without deletions reads its vectors straight into the composed matrix; one with deletions is read and copied", () => {
    const first = filePart(10, 2);
    const second = filePart(20, 3, [1]);
    const third = filePart(30, 1);
    const composed = composedVectors(new SlotMap([first.part, second.part, third.part]));
    expect(rowsOf(composed)).toEqual([
      [10, 10],
      [11, 11],
      [20, 20],
      [22, 22],
      [30, 30],
    ]);
    expect(first.calls).toEqual({ whole: 0, into: [0] });
    expect(second.calls).toEqual({ whole: 1, into: [] });
    expect(third.calls).toEqual({ whole: 0, into: [4] });
  });

  it("issue 36 item 5: a segment read straight in is held to the others' dimension, naming both", () => {
    const memory = { snapshot: { count: 1, vectors: new DenseMatrix(1, 16) } as unknown as IndexSnapshot };
    expect(() => composedVectors(new SlotMap([memory, filePart(1, 1).part]))).toThrow(
      /part 1 holds vectors of 8 dimensions, an earlier part of 16/,
    );
  });
});
