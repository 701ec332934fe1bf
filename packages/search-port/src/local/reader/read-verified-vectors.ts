import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { DenseMatrix, strideFor } from "../dense/dense-matrix.js";
import type { VerifiedFile } from "../format/verified-file.js";

/** A generation's vectors file, read whole through its block checks, as a matrix of `count` rows. */
export function readVerifiedVectors(file: VerifiedFile, count: number, dimension: number, stride: number): DenseMatrix {
  const matrix = new DenseMatrix(count, dimension);
  readVerifiedVectorsInto(file, count, dimension, stride, matrix, 0);
  return matrix;
}

/**
 * The same vectors read straight into rows `firstRow`.. of `target` (of `dimension`), as a
 * composed index of several segments reads each one's (issue 36 item 5: no matrix per segment
 * to copy from).
 */
export function readVerifiedVectorsInto(
  file: VerifiedFile,
  count: number,
  dimension: number,
  stride: number,
  target: DenseMatrix,
  firstRow: number,
): void {
  if (stride !== strideFor(dimension)) {
    throw new CorruptIndexError({
      directory: file.directory,
      reason: `${file.name} has rows of ${stride} bytes for ${dimension} dimensions`,
    });
  }
  const expected = 4 * count + count * stride;
  if (file.size !== expected) {
    throw new CorruptIndexError({ directory: file.directory, reason: `${file.name} has ${file.size} bytes, expected ${expected}` });
  }
  if (target.dimension !== dimension || firstRow + count > target.count) {
    throw new RangeError(
      `readVerifiedVectorsInto: ${count} rows of ${dimension} dimensions do not fit rows ${firstRow}.. of a matrix of ${target.count} rows of ${target.dimension}`,
    );
  }
  const norms = target.inverseNorms.subarray(firstRow, firstRow + count);
  file.readInto(new Uint8Array(norms.buffer, norms.byteOffset, norms.byteLength), 0);
  file.readInto(target.rowBytes().subarray(firstRow * stride, (firstRow + count) * stride), norms.byteLength);
}
