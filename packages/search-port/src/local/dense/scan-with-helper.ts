import { countHelperChunks } from "./dense-scan-helper.js";
import type { DenseScanHelper, SharedScanTarget } from "./dense-scan-helper.js";
import type { Int8DotScan } from "./kernels/int8-dot-kernel.js";

/** Where a matrix's scan reads and writes: its memory, its kernel and the offsets of its parts. */
export interface HelperScanTarget {
  memory: { readonly buffer: ArrayBufferLike };
  scan: Int8DotScan;
  queryOffset: number;
  outputOffset: number;
  rowsOffset: number;
  doneOffset: number;
  workerOutputOffset: number;
  count: number;
  stride: number;
  /** Rows per chunk, the unit the two threads claim (`chunkRows`). */
  chunkRows: number;
}

/**
 * A matrix's scan split with the helper thread (`DenseMatrix.scanInChunks` on a shared memory):
 * both threads claim chunks of `target.chunkRows` rows; `each` gets every range once, from this
 * thread's dot products (`scan.dots`) or the worker's region; chunks the worker has not
 * finished are scanned here, without waiting for it.
 */
export function scanWithHelper(
  target: HelperScanTarget,
  helper: DenseScanHelper,
  shared: SharedScanTarget,
  scan: {
    dots: Int32Array;
    queryInverseNorm: number;
    during: (() => void) | undefined;
    each: ((start: number, end: number, dots: Int32Array, queryInverseNorm: number) => void) | undefined;
  },
): void {
  const { memory, queryOffset, outputOffset, rowsOffset, doneOffset, workerOutputOffset, count, stride, chunkRows } = target;
  const kernel = target.scan;
  const { dots, queryInverseNorm, during, each } = scan;
  const chunks = Math.ceil(count / chunkRows);
  const done = new Int32Array(memory.buffer, doneOffset, chunks);
  done.fill(0);
  const job = helper.begin(shared, chunks, chunkRows);
  during?.();
  const mine = new Uint8Array(chunks);
  const scanChunk = (chunk: number) => {
    const start = chunk * chunkRows;
    const end = Math.min(count, start + chunkRows);
    kernel(queryOffset, rowsOffset + start * stride, stride / 16, end - start, outputOffset + start * 4);
    mine[chunk] = 1;
    each?.(start, end, dots, queryInverseNorm);
  };
  if (job === 0) {
    for (let chunk = 0; chunk < chunks; chunk += 1) scanChunk(chunk);
    return;
  }
  for (let chunk = helper.claim(); chunk < chunks; chunk = helper.claim()) scanChunk(chunk);
  // The chunks the worker finished, from its own region (in runs); any it has not finished
  // (still scanning, or never woken) are scanned here, without waiting for it.
  const workerDots = new Int32Array(memory.buffer, workerOutputOffset, count);
  for (let chunk = 0; chunk < chunks; ) {
    if (mine[chunk] === 1) {
      chunk += 1;
    } else if (Atomics.load(done, chunk) !== job) {
      scanChunk(chunk);
      chunk += 1;
    } else {
      let end = chunk + 1;
      while (end < chunks && mine[end] === 0 && Atomics.load(done, end) === job) end += 1;
      countHelperChunks(end - chunk);
      const startRow = chunk * chunkRows;
      const endRow = Math.min(count, end * chunkRows);
      if (each === undefined) dots.set(workerDots.subarray(startRow, endRow), startRow);
      else each(startRow, endRow, workerDots, queryInverseNorm);
      chunk = end;
    }
  }
}
