import type { Int8DotScan } from "./kernels/int8-dot-kernel.js";
import { scanInJavaScript } from "./quantise-vector.js";

/**
 * Where a streamed `DenseMatrix` reads its rows from (issue 36 item 5: a process's first dense
 * query reads the vectors chunk by chunk into one reused window, not whole into fresh memory).
 */
export interface StreamedRows {
  /** Fills `into` with the int8 rows `start..end - 1` (`end - start` rows of the matrix's stride), checked as they are read. */
  read(start: number, end: number, into: Uint8Array): void;
}

/** What `scanStreamedRows` scans with: the matrix's memory and where its parts are. */
export interface StreamedScan {
  rows: StreamedRows;
  buffer: ArrayBufferLike;
  /** The int8 kernel, absent without WebAssembly (a JavaScript loop then). */
  scan: Int8DotScan | undefined;
  queryOffset: number;
  outputOffset: number;
  /** The window: room for `windowRows` rows from here on. */
  rowsOffset: number;
  windowRows: number;
  count: number;
  stride: number;
}

/**
 * The dot products of the quantised query (already at `queryOffset`) with every row, into the
 * matrix's dot products (`dots`, all `count` of them), the rows read window by window: each
 * window is scanned right after it is read, while its bytes are in cache, and `each` runs for
 * it. The same int32 arithmetic on the same bytes as a scan of the whole matrix.
 */
export function scanStreamedRows(
  target: StreamedScan,
  dots: Int32Array,
  queryInverseNorm: number,
  each: ((start: number, end: number, dots: Int32Array, queryInverseNorm: number) => void) | undefined,
): void {
  const { rows, buffer, scan, queryOffset, outputOffset, rowsOffset, windowRows, count, stride } = target;
  const window = new Uint8Array(buffer, rowsOffset, windowRows * stride);
  const codes = scan === undefined ? new Int16Array(buffer, queryOffset, stride) : undefined;
  for (let start = 0; start < count; start += windowRows) {
    const end = Math.min(count, start + windowRows);
    rows.read(start, end, window.subarray(0, (end - start) * stride));
    if (scan !== undefined) scan(queryOffset, rowsOffset, stride / 16, end - start, outputOffset + start * 4);
    else
      scanInJavaScript(codes as Int16Array, new Int8Array(buffer, rowsOffset, (end - start) * stride), stride, dots.subarray(start, end));
    each?.(start, end, dots, queryInverseNorm);
  }
}
