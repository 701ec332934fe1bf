import { instantiateBitPlaneKernel } from "./bit-plane-kernel.js";
import type { BitPlaneScan } from "./bit-plane-kernel.js";
import type { DenseMatrix } from "./dense-matrix.js";
import { wasm } from "./int8-dot-kernel.js";
import type { WasmMemory } from "./int8-dot-kernel.js";

const pageSize = 65_536;

/**
 * A one-bit sketch of a `DenseMatrix`, to pick the rows worth an exact score: per row, bit i
 * is set when the row's code i is above the mean row's (`mean`). A query loses its component
 * along the mean row (which every row shares, so it ranks nothing), is cut to 4 bits per
 * component (`u_i` in 1..15 around 8) and is scored against every row's bits by the
 * bit-plane kernel (bit-plane-kernel.ts): the estimate K = sum of (u_i - 8) over the row's
 * set bits ranks rows about as the query's dot product with their signs (row - mean) does.
 * Rows take `dimension / 8` bytes (rounded up to 16), an 8th of the int8 rows, so a scan
 * reads far less memory and does far fewer operations than the exact one.
 *
 * Estimates that scale this by each row's spread and norm, or keep the query's mean
 * component, ranked worse on SciFact x20 (README, "Approximate dense search").
 *
 * Layout of the memory: the query's planes (64 bytes per block), the int32 kernel output
 * (one per row), then the rows' bits.
 */
export class BinarySketch {
  readonly count: number;
  readonly dimension: number;
  /** 16-byte blocks (128 bits) per row. */
  readonly blocks: number;
  readonly mean: Float64Array;
  /** |mean|^2. */
  private readonly meanSquare: number;
  private readonly memory: WasmMemory | { buffer: ArrayBuffer };
  private readonly planesOffset = 0;
  private readonly outputOffset: number;
  private readonly codesOffset: number;
  private readonly scan: BitPlaneScan | undefined;

  constructor(matrix: DenseMatrix, options: { simd?: boolean } = {}) {
    const { count, dimension, stride } = matrix;
    this.count = count;
    this.dimension = dimension;
    this.blocks = Math.max(1, Math.ceil(dimension / 128));
    this.outputOffset = this.blocks * 64;
    this.codesOffset = this.outputOffset + Math.ceil((count * 4) / 16) * 16;
    const bytes = this.codesOffset + count * this.blocks * 16;
    if (options.simd === false || wasm === undefined) {
      this.memory = { buffer: new ArrayBuffer(bytes) };
    } else {
      const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / pageSize)) });
      this.memory = memory;
      this.scan = instantiateBitPlaneKernel(memory);
    }
    const rows = new Int8Array(matrix.rowBytes().buffer, matrix.rowBytes().byteOffset, count * stride);
    const sums = new Float64Array(dimension);
    for (let slot = 0, base = 0; slot < count; slot += 1, base += stride) {
      for (let index = 0; index < dimension; index += 1) sums[index] = (sums[index] as number) + (rows[base + index] as number);
    }
    this.mean = sums.map((sum) => (count === 0 ? 0 : sum / count));
    this.meanSquare = this.mean.reduce((total, value) => total + value * value, 0);
    const codes = new Uint8Array(this.memory.buffer, this.codesOffset, count * this.blocks * 16);
    const rowBytes = this.blocks * 16;
    for (let slot = 0, base = 0; slot < count; slot += 1, base += stride) {
      const start = slot * rowBytes;
      for (let index = 0; index < dimension; index += 1) {
        const difference = (rows[base + index] as number) - (this.mean[index] as number);
        if (difference > 0) codes[start + (index >> 3)] = (codes[start + (index >> 3)] as number) | (1 << (index & 7));
      }
    }
  }

  /** The lowest and highest estimate a row can get: K sums at most `dimension` values in -8..7. */
  get range(): { lowest: number; highest: number } {
    return { lowest: -8 * this.dimension, highest: 7 * this.dimension };
  }

  /** Whether scans run on the WebAssembly SIMD kernel (else plain JavaScript). */
  get simd(): boolean {
    return this.scan !== undefined;
  }

  /** The bits of one row (a view: `blocks * 16` bytes, bit i at byte i >> 3, bit i & 7). */
  bits(slot: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, this.codesOffset + slot * this.blocks * 16, this.blocks * 16);
  }

  /**
   * The query cut to 4 bits (u_i = round(q_i / step) + 8, step = largest |q_i| / 7) as the
   * kernel's planes, and each row's K = sum of (u_i - 8) over its set bits (a view into the
   * sketch's memory, valid until its next scan), with `step` (0 for a zero query).
   */
  scores(query: ArrayLike<number>): { scores: Int32Array; step: number } {
    const planes = new Uint8Array(this.memory.buffer, this.planesOffset, this.blocks * 64);
    planes.fill(0);
    let largest = 0;
    for (let index = 0; index < this.dimension; index += 1) largest = Math.max(largest, Math.abs(query[index] as number));
    const step = largest > 0 && Number.isFinite(largest) ? largest / 7 : 0;
    const values = new Uint8Array(this.dimension);
    for (let index = 0; index < this.dimension; index += 1) {
      const value = step === 0 ? 8 : Math.min(15, Math.max(0, Math.round((query[index] as number) / step) + 8));
      values[index] = value;
      const block = index >> 7;
      const byte = (index & 127) >> 3;
      for (let plane = 0; plane < 4; plane += 1) {
        if ((value >> plane) & 1) {
          const at = block * 64 + plane * 16 + byte;
          planes[at] = (planes[at] as number) | (1 << (index & 7));
        }
      }
    }
    const scores = new Int32Array(this.memory.buffer, this.outputOffset, this.count);
    if (this.count === 0) return { scores, step };
    if (this.scan !== undefined) {
      this.scan(this.planesOffset, this.codesOffset, this.blocks, this.count, this.outputOffset);
    } else {
      this.scanInJavaScript(values, scores);
    }
    return { scores, step };
  }

  /**
   * Each row's estimate K for `query` (higher ranks first): `scores` of the query less its
   * component along the mean row. A view into the sketch's memory, valid until its next scan.
   */
  estimate(query: ArrayLike<number>): Int32Array {
    let queryDotMean = 0;
    for (let index = 0; index < this.dimension; index += 1) queryDotMean += (query[index] as number) * (this.mean[index] as number);
    const along = this.meanSquare > 0 ? queryDotMean / this.meanSquare : 0;
    const rest = new Float64Array(this.dimension);
    for (let index = 0; index < this.dimension; index += 1) rest[index] = (query[index] as number) - along * (this.mean[index] as number);
    return this.scores(rest).scores;
  }

  private scanInJavaScript(values: Uint8Array, output: Int32Array): void {
    const codes = new Uint8Array(this.memory.buffer, this.codesOffset, this.count * this.blocks * 16);
    const rowBytes = this.blocks * 16;
    for (let slot = 0; slot < this.count; slot += 1) {
      const start = slot * rowBytes;
      let sum = 0;
      for (let index = 0; index < this.dimension; index += 1) {
        if (((codes[start + (index >> 3)] as number) >> (index & 7)) & 1) sum += (values[index] as number) - 8;
      }
      output[slot] = sum;
    }
  }
}
