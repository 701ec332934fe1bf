import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { DenseMatrix, strideFor } from "../dense/dense-matrix.js";
import type { VerifiedFile } from "../format/verified-file.js";

/** A generation's vectors file, read whole through its block checks, as a matrix of `count` rows. */
export function readVerifiedVectors(file: VerifiedFile, count: number, dimension: number, stride: number): DenseMatrix {
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
  const matrix = new DenseMatrix(count, dimension);
  const norms = matrix.inverseNorms;
  file.readInto(new Uint8Array(norms.buffer, norms.byteOffset, norms.byteLength), 0);
  file.readInto(matrix.rowBytes(), norms.byteLength);
  return matrix;
}
