import { DenseMatrix, strideFor } from "./dense-matrix.js";
import type { VectorRowsFile } from "../snapshot/index-snapshot.js";

/** One vectors file of a streamed matrix, and the matrix row its first row becomes. */
export interface StreamedPiece {
  file: VectorRowsFile;
  firstRow: number;
}

/**
 * A streamed `DenseMatrix` of `count` rows over `pieces` (in row order, together covering rows
 * 0..count-1 exactly, one dimension): the norms read now, the rows by each scan, a chunk at a
 * time, from the files (issue 36 item 5). An Error names a piece that does not fit.
 */
export function streamedMatrix(pieces: readonly StreamedPiece[], count: number, dimension: number): DenseMatrix {
  let next = 0;
  for (const { file, firstRow } of pieces) {
    if (firstRow !== next || file.dimension !== dimension) {
      throw new Error(
        `streamedMatrix: a piece of ${file.count} rows of ${file.dimension} dimensions at row ${firstRow} does not follow row ${next} of ${dimension}`,
      );
    }
    next += file.count;
  }
  if (next !== count) throw new Error(`streamedMatrix: the pieces hold ${next} rows, not ${count}`);
  const stride = strideFor(dimension);
  const read = (start: number, end: number, into: Uint8Array): void => {
    for (const { file, firstRow } of pieces) {
      const from = Math.max(start, firstRow);
      const to = Math.min(end, firstRow + file.count);
      if (from < to) file.readRows(from - firstRow, into.subarray((from - start) * stride, (to - start) * stride));
    }
  };
  const matrix = new DenseMatrix(count, dimension, { streamed: { read } });
  for (const { file, firstRow } of pieces) file.readNorms(matrix.inverseNorms.subarray(firstRow, firstRow + file.count));
  return matrix;
}
