import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { DenseMatrix, strideFor } from "../dense/dense-matrix.js";
import type { VerifiedFile } from "../format/verified-file.js";
import type { VectorRowsFile } from "../snapshot/index-snapshot.js";

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
  checkVectorsFile(file, count, dimension, stride);
  if (target.dimension !== dimension || firstRow + count > target.count) {
    throw new RangeError(
      `readVerifiedVectorsInto: ${count} rows of ${dimension} dimensions do not fit rows ${firstRow}.. of a matrix of ${target.count} rows of ${target.dimension}`,
    );
  }
  const norms = target.inverseNorms.subarray(firstRow, firstRow + count);
  file.readInto(new Uint8Array(norms.buffer, norms.byteOffset, norms.byteLength), 0);
  file.readInto(target.rowBytes().subarray(firstRow * stride, (firstRow + count) * stride), norms.byteLength);
}

/**
 * The same file read by rows (`VectorRowsFile`, for a streamed matrix): its layout checked at
 * the first read, as a whole read checks it, each block checked the first time it is read.
 */
export function vectorRowsFile(file: VerifiedFile, count: number, dimension: number, stride: number): VectorRowsFile {
  let checked = false;
  const check = (): void => {
    if (!checked) checkVectorsFile(file, count, dimension, stride);
    checked = true;
  };
  return {
    count,
    dimension,
    readNorms(into: Float32Array): void {
      check();
      if (into.length !== count) throw new RangeError(`readNorms: ${into.length} norms asked of a file of ${count} rows`);
      file.readInto(new Uint8Array(into.buffer, into.byteOffset, into.byteLength), 0);
    },
    readRows(first: number, into: Uint8Array): void {
      check();
      if (into.length % stride !== 0 || first < 0 || first * stride + into.length > count * stride) {
        throw new RangeError(
          `readRows: ${into.length} bytes from row ${first} are not whole rows of a file of ${count} rows of ${stride} bytes`,
        );
      }
      file.readInto(into, 4 * count + first * stride);
    },
  };
}

/** Refuses a vectors file whose stride or size is not the one `count` rows of `dimension` have. */
function checkVectorsFile(file: VerifiedFile, count: number, dimension: number, stride: number): void {
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
}
