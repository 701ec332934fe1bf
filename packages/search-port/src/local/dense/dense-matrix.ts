import { denseScanHelperFor, detachWhenCollected, noteScanWithoutHelper } from "./dense-scan-helper.js";
import type { SharedScanTarget } from "./dense-scan-helper.js";
import { instantiateDenseFuseKernel } from "./kernels/dense-fuse-kernel.js";
import type { DenseFuse } from "./kernels/dense-fuse-kernel.js";
import type { DenseFusionOptions } from "./dense-fusion-options.js";
import { denseMatrixLayout } from "./dense-matrix-layout.js";
import type { DenseMatrixLayout } from "./dense-matrix-layout.js";
import { fuseDenseScores } from "./fuse-dense-scores.js";
import { fuseDenseScoresOnKernel } from "./fuse-dense-scores-on-kernel.js";
import type { DenseFuseTarget } from "./fuse-dense-scores-on-kernel.js";
import { instantiateInt8DotKernel, int8DotKernel, wasm } from "./kernels/int8-dot-kernel.js";
import { quantiseQuery, scanInJavaScript } from "./quantise-vector.js";
import { sharedWasmMemory } from "./kernels/shared-wasm-memory.js";
import { wasmMemory } from "./kernels/wasm-memory.js";
import type { Int8DotScan, WasmMemory } from "./kernels/int8-dot-kernel.js";
import { scanStreamedRows } from "./streamed-rows.js";
import { scanWithHelper } from "./scan-with-helper.js";
import type { StreamedRows } from "./streamed-rows.js";

/** Bytes per stored vector: the dimension rounded up to a multiple of 16 (zero padded). */
export function strideFor(dimension: number): number {
  return Math.ceil(dimension / 16) * 16;
}

export { quantiseQuery, quantiseVector } from "./quantise-vector.js";

const pageSize = 65_536;
/** The most pages one WebAssembly memory can have (4 GiB). */
const maximumPages = 65_536;

/**
 * From this many rows on, a matrix lives in a shared memory and a scan is split with the
 * helper thread (`dense-scan-helper.ts`) when a port holds it. Measured at 368 dimensions
 * (scan and fused pass, p50, one thread against two): 8,192 rows 0.17-0.26 against
 * 0.19-0.22 ms; 16,384 rows 0.35-0.37 against 0.30 ms; 65,536 rows 1.8 against 1.0-1.5 ms.
 */
export const parallelScanRows = 16_384;

/** Rows per chunk of a scan: the unit the two threads claim, and the unit of `scanInChunks`'s `each`. */
export const scanChunkRows = 4096;

let matrices = 0;

/**
 * Unit-length embeddings stored as int8 codes, one row of `stride` bytes per slot, in a
 * WebAssembly memory so the SIMD kernel can scan them; without WebAssembly SIMD a plain
 * JavaScript loop scans the same bytes.
 *
 * A vector is quantised by scaling its largest component to +-127 and rounding;
 * `inverseNorms[slot]` is 1 / |codes|, so the cosine of the codes with a query is exact for
 * the codes and within about 1% of the float cosine (measured in the bench).
 *
 * The memory holds the query, the dot products, the norms and the rows, among others
 * (`denseMatrixLayout`). A streamed matrix (option `streamed`) holds one chunk of rows at a
 * time: a scan reads them from its `StreamedRows` chunk by chunk into the same window (its
 * norms are set by whoever made it); it has no rows to hand out or copy.
 */
export class DenseMatrix {
  readonly dimension: number;
  readonly stride: number;
  readonly count: number;
  readonly inverseNorms: Float32Array;
  private readonly memory: WasmMemory | { buffer: ArrayBuffer };
  private readonly layout: DenseMatrixLayout;
  private readonly scan: Int8DotScan | undefined;
  /** The fuse kernel on this matrix's memory, absent without WebAssembly. */
  private readonly fuseTarget: DenseFuseTarget | undefined;
  /** Set when the memory is shared, so the helper thread can scan it too. */
  private readonly sharedTarget: SharedScanTarget | undefined;
  /** Where a streamed matrix reads its rows (absent: the rows are in the memory). */
  private readonly streamed: StreamedRows | undefined;

  /**
   * `parallel`: whether the memory is shared with the helper thread (default: when the
   * runtime can and the matrix has at least `parallelScanRows` rows; never for a streamed one).
   * `streamed`: the rows are read from it at each scan, a chunk at a time.
   */
  constructor(count: number, dimension: number, options: { simd?: boolean; parallel?: boolean; streamed?: StreamedRows } = {}) {
    this.count = count;
    this.dimension = dimension;
    this.stride = strideFor(dimension);
    this.streamed = options.streamed;
    const rowCapacity = this.streamed === undefined ? count : Math.min(count, scanChunkRows);
    this.layout = denseMatrixLayout(count, this.stride, scanChunkRows, rowCapacity);
    const { bytes, normsOffset } = this.layout;
    const pages = Math.max(1, Math.ceil(bytes / pageSize));
    if (options.simd !== false && wasm !== undefined && pages > maximumPages) {
      throw new RangeError(
        `DenseMatrix: ${count} vectors of ${dimension} dimensions need ${bytes} bytes of WebAssembly memory, more than the 4 GiB one memory can hold (about ${Math.floor((maximumPages * pageSize) / (this.stride + 20))} vectors of this dimension); split the knowledge base over several indexes or use the Pinecone port`,
      );
    }
    const wanted = options.simd !== false && wasm !== undefined;
    const parallel = this.streamed === undefined && (options.parallel ?? count >= parallelScanRows);
    const shared = wanted && parallel ? sharedWasmMemory(pages) : undefined;
    const kernel = shared === undefined ? undefined : int8DotKernel({ shared: true });
    if (shared !== undefined && kernel !== null && kernel !== undefined) {
      this.memory = shared;
      this.scan = instantiateInt8DotKernel(shared, { shared: true });
      this.fuseTarget = fuseTargetOf(instantiateDenseFuseKernel(shared, { shared: true }), shared, this.layout);
      matrices += 1;
      const { queryOffset, rowsOffset, workerOutputOffset, doneOffset } = this.layout;
      const layout = { queryOffset, rowsOffset, workerOutputOffset, doneOffset, stride: this.stride, count };
      this.sharedTarget = { id: matrices, memory: shared, kernel, layout };
      detachWhenCollected(this, matrices);
    } else {
      // Without a memory for the kernels (no WebAssembly, SIMD turned off, or a memory the runtime
      // refused), the rows live in plain memory and JavaScript scans them: the same values, slower.
      const own = wanted ? wasmMemory(pages) : undefined;
      this.memory = own ?? { buffer: new ArrayBuffer(bytes) };
      if (own !== undefined) {
        this.scan = instantiateInt8DotKernel(own);
        this.fuseTarget = fuseTargetOf(instantiateDenseFuseKernel(own), own, this.layout);
      }
    }
    this.inverseNorms = new Float32Array(this.memory.buffer, normsOffset, count);
  }

  /**
   * A float64 per slot, all zero, for a search's lexical scores (`lexicalScores`) that
   * `fuseRows` reads and sets back to zero; searches of one matrix never overlap.
   */
  lexicalScratch(): Float64Array {
    return new Float64Array(this.memory.buffer, this.layout.lexicalOffset, this.count);
  }

  /**
   * The fused pass `fuseDenseScores` over rows `start..end - 1` of the last scan (`dots`, as
   * `scanInChunks` gives them to `each`), with the lexical scores of `lexicalScratch`, which it sets back to zero: in WebAssembly where the
   * runtime has it (bit for bit the same values), else in JavaScript. `fusion` is the search's,
   * the same object for every range.
   */
  fuseRows(dots: Int32Array, start: number, end: number, queryInverseNorm: number, fusion: DenseFusionOptions): void {
    const target = this.fuseTarget;
    if (target === undefined) {
      const lexical = this.lexicalScratch();
      fuseDenseScores(lexical, dots, this.inverseNorms, queryInverseNorm, { start, end }, fusion);
      lexical.fill(0, start, end);
      return;
    }
    const range = { start, end };
    fuseDenseScoresOnKernel(target, dots, queryInverseNorm, range, fusion);
  }

  /** Whether scans of this matrix can be split with the helper thread (its memory is shared). */
  get parallel(): boolean {
    return this.sharedTarget !== undefined;
  }

  /** Whether scans run on the WebAssembly SIMD kernel (else plain JavaScript). */
  get simd(): boolean {
    return this.scan !== undefined;
  }

  /** The rows as bytes, to fill from a file or to write to one. */
  rowBytes(): Uint8Array {
    this.refuseStreamed("rowBytes");
    return new Uint8Array(this.memory.buffer, this.layout.rowsOffset, this.count * this.stride);
  }

  /** The int8 codes of one row (a view, not a copy). */
  row(slot: number): Int8Array {
    this.refuseStreamed("row");
    return new Int8Array(this.memory.buffer, this.layout.rowsOffset + slot * this.stride, this.stride);
  }

  setRow(slot: number, codes: Int8Array, inverseNorm: number): void {
    this.row(slot).set(codes.subarray(0, this.stride));
    this.inverseNorms[slot] = inverseNorm;
  }

  /** Copies `count` consecutive rows of `from` (same dimension), starting at `fromSlot`, to `toSlot` on. */
  copyRows(from: DenseMatrix, fromSlot: number, toSlot: number, count: number): void {
    this.refuseStreamed("copyRows");
    from.refuseStreamed("copyRows");
    const source = new Uint8Array(from.memory.buffer, from.layout.rowsOffset + fromSlot * from.stride, count * from.stride);
    new Uint8Array(this.memory.buffer, this.layout.rowsOffset + toSlot * this.stride, count * this.stride).set(source);
    this.inverseNorms.set(from.inverseNorms.subarray(fromSlot, fromSlot + count), toSlot);
  }

  /**
   * The cosine of `query` with every row, written to `output` (length >= count). A zero
   * query or row gives 0.
   */
  cosines(query: ArrayLike<number>, output: Float32Array): void {
    const { dots, queryInverseNorm } = this.dots(query);
    const inverseNorms = this.inverseNorms;
    for (let slot = 0; slot < this.count; slot += 1) {
      output[slot] = (dots[slot] as number) * (inverseNorms[slot] as number) * queryInverseNorm;
    }
  }

  /**
   * The int32 dot product of the quantised `query` with every row (a view into the matrix's
   * memory, valid until its next scan) and 1 / |query codes| (0 for a zero query): the cosine
   * of a row is `fround(dots[slot] * inverseNorms[slot] * queryInverseNorm)`, as `cosines`
   * writes it, without a pass that writes every cosine.
   */
  dots(query: ArrayLike<number>): { dots: Int32Array; queryInverseNorm: number } {
    return this.scanInChunks(query, undefined, undefined);
  }

  /**
   * The same scan as `dots`, with this thread's other work fitted in: `during` runs here
   * right after the helper thread (if any) was woken, and `each(start, end, dots,
   * queryInverseNorm)` runs for every range of rows whose dot products are ready, soon after
   * they were written (while they are in cache); together the ranges cover every row once,
   * in no set order. `dots` is the array that holds that range (the worker's rows are in a
   * region of their own; the returned `dots` holds every row only when `each` is absent).
   * A matrix with a shared memory splits the rows with the helper thread when a port holds
   * it (`acquireDenseScanHelper`); else this thread scans them all. The dot products are
   * the same either way (int32 arithmetic on the same rows).
   */
  scanInChunks(
    query: ArrayLike<number>,
    during: (() => void) | undefined,
    each: ((start: number, end: number, dots: Int32Array, queryInverseNorm: number) => void) | undefined,
  ): { dots: Int32Array; queryInverseNorm: number } {
    const { queryOffset, outputOffset, rowsOffset, doneOffset, workerOutputOffset } = this.layout;
    const codes = new Int16Array(this.memory.buffer, queryOffset, this.stride);
    const queryInverseNorm = quantiseQuery(query, this.dimension, codes);
    const dots = new Int32Array(this.memory.buffer, outputOffset, this.count);
    const { count, scan, stride } = this;
    if (this.streamed !== undefined) {
      noteScanWithoutHelper();
      during?.();
      const window = { rows: this.streamed, buffer: this.memory.buffer, windowRows: Math.min(count, scanChunkRows) };
      scanStreamedRows({ ...window, scan, queryOffset, outputOffset, rowsOffset, count, stride }, dots, queryInverseNorm, each);
      return { dots, queryInverseNorm };
    }
    const helper = this.sharedTarget === undefined || count === 0 ? undefined : denseScanHelperFor(count);
    if (scan === undefined) {
      during?.();
      scanInJavaScript(codes, new Int8Array(this.memory.buffer, rowsOffset, count * stride), stride, dots);
      each?.(0, count, dots, queryInverseNorm);
      return { dots, queryInverseNorm };
    }
    if (helper === undefined) {
      // One thread, chunk by chunk all the same, so `each` reads dot products still in cache.
      during?.();
      for (let start = 0; start < count; start += scanChunkRows) {
        const end = Math.min(count, start + scanChunkRows);
        scan(queryOffset, rowsOffset + start * stride, stride / 16, end - start, outputOffset + start * 4);
        each?.(start, end, dots, queryInverseNorm);
      }
      return { dots, queryInverseNorm };
    }
    const offsets = { queryOffset, outputOffset, rowsOffset, doneOffset, workerOutputOffset };
    const target = { memory: this.memory, scan, ...offsets, count, stride, chunkRows: scanChunkRows };
    scanWithHelper(target, helper, this.sharedTarget as SharedScanTarget, { dots, queryInverseNorm, during, each });
    return { dots, queryInverseNorm };
  }

  /**
   * The same int32 dot products as `dots`, for the listed slots only (`output[index]` for
   * `slots[index]`), so re-scoring a few candidates does not scan every row. Exactly the
   * values `dots` gives those slots (int32 arithmetic).
   */
  dotsOf(query: ArrayLike<number>, slots: ArrayLike<number>, output: Int32Array): number {
    this.refuseStreamed("dotsOf");
    const codes = new Int16Array(this.memory.buffer, this.layout.queryOffset, this.stride);
    const queryInverseNorm = quantiseQuery(query, this.dimension, codes);
    const rows = new Int8Array(this.memory.buffer, this.layout.rowsOffset, this.count * this.stride);
    const { dimension, stride } = this;
    for (let index = 0; index < slots.length; index += 1) {
      const base = (slots[index] as number) * stride;
      let sum = 0;
      for (let component = 0; component < dimension; component += 1) {
        sum += (codes[component] as number) * (rows[base + component] as number);
      }
      output[index] = sum | 0;
    }
    return queryInverseNorm;
  }

  /** A streamed matrix holds one chunk of rows at a time: what needs them all is refused, by name. */
  private refuseStreamed(method: string): void {
    if (this.streamed !== undefined) throw new Error(`DenseMatrix.${method}: a streamed matrix holds no rows between scans`);
  }
}

/** The fuse kernel with the memory and layout it runs on, or undefined without the kernel. */
function fuseTargetOf(
  fuse: DenseFuse | undefined,
  memory: { readonly buffer: ArrayBufferLike },
  layout: DenseMatrixLayout,
): DenseFuseTarget | undefined {
  return fuse === undefined ? undefined : { fuse, memory, layout };
}
