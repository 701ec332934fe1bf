import { BinarySketch } from "./binary-sketch.js";
import type { DenseMatrix } from "./dense-matrix.js";
import { GatheredDots } from "./gathered-dots.js";

/** What approximate dense search keeps per matrix: its one-bit sketch and the re-scorer of candidates. */
export interface ApproximateDenseIndex {
  sketch: BinarySketch;
  rescorer: GatheredDots;
}

const built = new WeakMap<DenseMatrix, ApproximateDenseIndex>();

/**
 * The approximate dense index of a matrix, built on first use (one pass over its rows) and
 * kept as long as the matrix lives. A committed generation's matrix never changes; a
 * writer's current state gets a new matrix when it changes, so its next approximate search
 * builds a new sketch.
 */
export function approximateDenseIndexOf(matrix: DenseMatrix): ApproximateDenseIndex {
  let index = built.get(matrix);
  if (index === undefined) {
    index = { sketch: new BinarySketch(matrix), rescorer: new GatheredDots(matrix) };
    built.set(matrix, index);
  }
  return index;
}
