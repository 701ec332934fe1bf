import type { DenseMatrix } from "./dense-matrix.js";
import type { WasmMemory } from "./kernels/int8-dot-kernel.js";
import { wasmMemory } from "./kernels/wasm-memory.js";
import { instantiateNibbleTableKernel } from "./kernels/nibble-table-kernel.js";
import type { NibbleTableScan } from "./kernels/nibble-table-kernel.js";

const pageSize = 65_536;

/**
 * A one-bit sketch of a `DenseMatrix`, to pick the rows worth an exact score: per row, bit i
 * is set when the row's code i is above the mean row's (`mean`). A query loses its component
 * along the mean row (which every row shares, so it ranks nothing), is cut to 4 bits per
 * component (`u_i` in 1..15 around 8) and is scored against every row's bits by table
 * look-ups (nibble-table-kernel.ts): the estimate K = sum of (u_i - 8) over the row's set
 * bits ranks rows about as the query's dot product with their signs (row - mean) does.
 * Rows take `dimension / 8` bytes (rounded up to 8), an 8th of the int8 rows, and one
 * look-up scores 4 dimensions of 16 rows, so a scan costs a fraction of the exact one.
 *
 * Estimates that scale this by each row's spread and norm, or keep the query's mean
 * component, ranked worse on SciFact x20 (README, "Approximate dense search").
 *
 * Layout of the memory: the query's tables (16 bytes per nibble), the int32 kernel output
 * (one per row, in groups of 32), then the rows' nibbles, group by group (the kernel's layout).
 */
export class BinarySketch {
  readonly count: number;
  readonly dimension: number;
  /** Quads of nibbles (16 dimensions) per row. */
  readonly quads: number;
  /** Groups of 32 rows (the last one padded with zero codes). */
  readonly groups: number;
  readonly mean: Float64Array;
  /** |mean|^2. */
  private readonly meanSquare: number;
  private readonly memory: WasmMemory | { buffer: ArrayBuffer };
  private readonly tablesOffset = 0;
  private readonly outputOffset: number;
  private readonly codesOffset: number;
  private readonly scan: NibbleTableScan | undefined;

  constructor(matrix: DenseMatrix, options: { simd?: boolean } = {}) {
    const { count, dimension, stride } = matrix;
    this.count = count;
    this.dimension = dimension;
    this.quads = Math.max(1, Math.ceil(dimension / 16));
    this.groups = Math.ceil(count / 32);
    this.outputOffset = this.quads * 64;
    this.codesOffset = this.outputOffset + this.groups * 128;
    const bytes = this.codesOffset + this.groups * this.quads * 64;
    // The kernel's int16 lanes hold the sums of at most 292 quads (4,672 dimensions).
    // Without a memory for the kernel (`wasmMemory`: none, or one the runtime refused), the
    // codes live in plain memory and JavaScript reads them: the same estimates, slower.
    const memory = options.simd === false || this.quads > 292 ? undefined : wasmMemory(Math.max(1, Math.ceil(bytes / pageSize)));
    this.memory = memory ?? { buffer: new ArrayBuffer(bytes) };
    if (memory !== undefined) this.scan = instantiateNibbleTableKernel(memory);
    const rows = new Int8Array(matrix.rowBytes().buffer, matrix.rowBytes().byteOffset, count * stride);
    // Int32 sums are exact up to 16 million rows (127 * 2^24 < 2^31); Float64 beyond.
    const sums = count < 2 ** 24 ? new Int32Array(dimension) : new Float64Array(dimension);
    for (let slot = 0, base = 0; slot < count; slot += 1, base += stride) {
      for (let index = 0; index < dimension; index += 1) sums[index] = (sums[index] as number) + (rows[base + index] as number);
    }
    this.mean = Float64Array.from(sums, (sum) => (count === 0 ? 0 : sum / count));
    this.meanSquare = this.mean.reduce((total, value) => total + value * value, 0);
    const mean = this.mean;
    const codes = new Uint8Array(this.memory.buffer, this.codesOffset, this.groups * this.quads * 64);
    const groupBytes = this.quads * 64;
    for (let slot = 0, base = 0; slot < count; slot += 1, base += stride) {
      // The row's first nibble byte and half (see `place`), inlined for the million-row pass.
      const start = (slot >> 5) * groupBytes + (slot & 15);
      const shift = slot & 16 ? 4 : 0;
      for (let index = 0; index < dimension; index += 1) {
        if ((rows[base + index] as number) > (mean[index] as number)) {
          const at = start + (index >> 2) * 16;
          codes[at] = (codes[at] as number) | (1 << ((index & 3) + shift));
        }
      }
    }
  }

  /** Where a row's nibbles lie: the byte of its first nibble (the next ones 16 bytes apart) and the half (0 low, 4 high). */
  private place(slot: number): { start: number; shift: number } {
    const group = slot >> 5;
    const lane = slot & 31;
    return { start: group * this.quads * 64 + (lane & 15), shift: lane < 16 ? 0 : 4 };
  }

  /** The lowest and highest estimate a row can get: K sums at most `dimension` values in -7..7. */
  get range(): { lowest: number; highest: number } {
    return { lowest: -7 * this.dimension, highest: 7 * this.dimension };
  }

  /** Whether scans run on the WebAssembly SIMD kernel (else plain JavaScript). */
  get simd(): boolean {
    return this.scan !== undefined;
  }

  /** The bits of one row (a copy: bit i at byte i >> 3, bit i & 7, `ceil(dimension / 8)` bytes). */
  bits(slot: number): Uint8Array {
    const codes = new Uint8Array(this.memory.buffer, this.codesOffset);
    const { start, shift } = this.place(slot);
    const bits = new Uint8Array(Math.ceil(this.dimension / 8));
    for (let index = 0; index < this.quads * 16; index += 1) {
      if (((codes[start + (index >> 2) * 16] as number) >> ((index & 3) + shift)) & 1) {
        if (index >= this.dimension) throw new Error(`bit ${index} is set past the dimension ${this.dimension}`);
        bits[index >> 3] = (bits[index >> 3] as number) | (1 << (index & 7));
      }
    }
    return bits;
  }

  /**
   * The query cut to 4 bits (u_i = round(q_i / step) + 8, step = largest |q_i| / 7, so u_i - 8
   * lies in -7..7) as the kernel's tables, and each row's K = sum of (u_i - 8) over its set
   * bits (a view into the sketch's memory, valid until its next scan).
   */
  scores(query: ArrayLike<number>): Int32Array {
    const tables = new Int8Array(this.memory.buffer, this.tablesOffset, this.quads * 64);
    tables.fill(0);
    let largest = 0;
    for (let index = 0; index < this.dimension; index += 1) largest = Math.max(largest, Math.abs(query[index] as number));
    const step = largest > 0 && Number.isFinite(largest) ? largest / 7 : 0;
    for (let index = 0; index < this.dimension; index += 1) {
      const value = step === 0 ? 0 : Math.min(7, Math.max(-7, Math.round((query[index] as number) / step)));
      if (value === 0) continue;
      // Every entry of this dimension's nibble whose bit for it is set gets the value.
      const table = (index >> 2) * 16;
      const bit = 1 << (index & 3);
      for (let entry = 0; entry < 16; entry += 1) if (entry & bit) tables[table + entry] = (tables[table + entry] as number) + value;
    }
    const output = new Int32Array(this.memory.buffer, this.outputOffset, this.groups * 32);
    if (this.count === 0) return output.subarray(0, 0);
    if (this.scan !== undefined) {
      this.scan(this.tablesOffset, this.codesOffset, this.quads, this.groups, this.outputOffset);
    } else {
      this.scanInJavaScript(tables, output);
    }
    return output.subarray(0, this.count);
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
    return this.scores(rest);
  }

  private scanInJavaScript(tables: Int8Array, output: Int32Array): void {
    const codes = new Uint8Array(this.memory.buffer, this.codesOffset);
    const nibbles = this.quads * 4;
    for (let slot = 0; slot < this.count; slot += 1) {
      const { start, shift } = this.place(slot);
      let sum = 0;
      for (let nibble = 0; nibble < nibbles; nibble += 1) {
        sum += tables[nibble * 16 + (((codes[start + nibble * 16] as number) >> shift) & 15)] as number;
      }
      output[slot] = sum;
    }
  }
}
