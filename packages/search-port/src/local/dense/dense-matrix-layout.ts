/**
 * Where each part of a `DenseMatrix`'s memory starts (byte offsets, each aligned to 16): the
 * int16 query (stride values), the fused pass's state and candidates (`fuseRows`), the int32
 * dot products (one per slot), the helper thread's dot products and chunk marks
 * (`dense-scan-helper.ts`), the inverse norms (float32), a float64 lexical score per slot
 * (`lexicalScratch`), then the rows; and the bytes they take in all. A streamed matrix
 * (`StreamedRows`) has room for one chunk of rows only (`rowCapacity`).
 */
export interface DenseMatrixLayout {
  readonly queryOffset: number;
  readonly stateOffset: number;
  readonly candidatesOffset: number;
  /** How many candidates the fused kernel writes before the caller offers them (`fuseRows`). */
  readonly candidateCapacity: number;
  readonly outputOffset: number;
  readonly workerOutputOffset: number;
  readonly doneOffset: number;
  readonly normsOffset: number;
  readonly lexicalOffset: number;
  readonly rowsOffset: number;
  readonly bytes: number;
}

/** Candidates the fused kernel writes before the caller offers them (`fuseRows`). */
const candidateCapacity = 256;

/**
 * The layout of a matrix of `count` rows of `stride` bytes, scanned in chunks of `chunkRows`
 * rows, with room for `rowCapacity` rows (default: all of them).
 */
export function denseMatrixLayout(count: number, stride: number, chunkRows: number, rowCapacity = count): DenseMatrixLayout {
  const queryOffset = 0;
  const stateOffset = align(stride * 2, 16);
  const candidatesOffset = stateOffset + 32;
  const outputOffset = candidatesOffset + candidateCapacity * 32;
  const workerOutputOffset = align(outputOffset + count * 4, 16);
  const doneOffset = align(workerOutputOffset + count * 4, 16);
  const normsOffset = align(doneOffset + Math.ceil(count / chunkRows) * 4, 16);
  const lexicalOffset = align(normsOffset + count * 4, 16);
  const rowsOffset = align(lexicalOffset + count * 8, 16);
  const bytes = rowsOffset + rowCapacity * stride;
  return {
    queryOffset,
    stateOffset,
    candidatesOffset,
    candidateCapacity,
    outputOffset,
    workerOutputOffset,
    doneOffset,
    normsOffset,
    lexicalOffset,
    rowsOffset,
    bytes,
  };
}

function align(value: number, to: number): number {
  return Math.ceil(value / to) * to;
}
