import type { DenseMatrix } from "./dense-matrix.js";
import { quantiseQuery } from "./dense-matrix.js";
import { instantiateInt8DotKernel } from "./kernels/int8-dot-kernel.js";
import type { Int8DotScan } from "./kernels/int8-dot-kernel.js";
import { grown, wasmMemory } from "./kernels/wasm-memory.js";
import type { GrowableMemory } from "./kernels/wasm-memory.js";

/**
 * Exact int8 dot products of a query with a few listed rows of a `DenseMatrix`: the rows are
 * copied back to back into a memory of its own (grown as needed) and scanned by the same
 * SIMD kernel as `DenseMatrix.dots`, so each value equals the one the full scan gives that
 * row, at the cost of the listed rows only. Without WebAssembly SIMD, `DenseMatrix.dotsOf`
 * (plain JavaScript, the same values) does the work.
 *
 * Layout of the memory: the int16 query (stride values), the int32 dot products (one per
 * listed row), then the copied rows.
 */
export class GatheredDots {
  private readonly matrix: DenseMatrix;
  private readonly memory: GrowableMemory | undefined;
  private readonly scan: Int8DotScan | undefined;

  constructor(matrix: DenseMatrix) {
    this.matrix = matrix;
    // No memory to be had (`wasmMemory`): `DenseMatrix.dotsOf` does the work, as without SIMD.
    const memory = matrix.simd ? wasmMemory(1) : undefined;
    if (memory !== undefined) {
      this.memory = memory;
      this.scan = instantiateInt8DotKernel(memory);
    }
  }

  /** The dot products of `query` with the rows `slots` (one per listed slot, a fresh array) and 1 / |query codes|. */
  dotsOf(query: ArrayLike<number>, slots: ArrayLike<number>): { dots: Int32Array; queryInverseNorm: number } {
    const matrix = this.matrix;
    const count = slots.length;
    const stride = matrix.stride;
    const outputOffset = stride * 2;
    const rowsOffset = Math.ceil((outputOffset + count * 4) / 16) * 16;
    const needed = rowsOffset + count * stride;
    // No kernel, or no room to grow its memory (a process short of address space): the same dot
    // products in JavaScript.
    if (this.memory === undefined || this.scan === undefined || !grown(this.memory, needed)) {
      const dots = new Int32Array(count);
      return { dots, queryInverseNorm: matrix.dotsOf(query, slots, dots) };
    }
    const buffer = this.memory.buffer;
    const queryInverseNorm = quantiseQuery(query, matrix.dimension, new Int16Array(buffer, 0, stride));
    // Copied as int32 words (the stride is a multiple of 16 bytes, both regions 4-aligned).
    const words = stride / 4;
    const rows = new Int32Array(buffer, rowsOffset, count * words);
    const bytes = matrix.rowBytes();
    const source = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    for (let index = 0, to = 0; index < count; index += 1) {
      for (let from = (slots[index] as number) * words, end = from + words; from < end; from += 1, to += 1)
        rows[to] = source[from] as number;
    }
    if (count > 0) this.scan(0, rowsOffset, stride / 16, count, outputOffset);
    return { dots: new Int32Array(buffer, outputOffset, count).slice(), queryInverseNorm };
  }
}
