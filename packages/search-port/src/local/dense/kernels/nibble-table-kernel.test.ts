import { describe, expect, it, vi } from "vitest";
import { BinarySketch } from "../binary-sketch.js";
import { wasm } from "./int8-dot-kernel.js";
import { nibbleTableKernel } from "./nibble-table-kernel.js";
import { DenseMatrix, quantiseVector } from "../dense-matrix.js";
import { random } from "../../test/seeded-random-test-fixtures.js";

function filledMatrix(count: number, dimension: number, seed: number): DenseMatrix {
  const next = random(seed);
  const matrix = new DenseMatrix(count, dimension);
  const codes = new Int8Array(matrix.stride);
  for (let slot = 0; slot < count; slot += 1) {
    const vector = Array.from({ length: dimension }, () => next() - 0.5);
    matrix.setRow(slot, codes, quantiseVector(vector, codes));
  }
  return matrix;
}

/** The definitions, spelled out: the mean row, each row's sign bits, the query's 4-bit values and K. */
function reference(matrix: DenseMatrix, query: number[]): { bits: number[][]; scores: number[] } {
  const { count, dimension } = matrix;
  const mean = Array.from({ length: dimension }, (_, index) => {
    let sum = 0;
    for (let slot = 0; slot < count; slot += 1) sum += matrix.row(slot)[index] as number;
    return sum / count;
  });
  const largest = Math.max(...query.map(Math.abs));
  const values = query.map((value) => Math.min(15, Math.max(0, Math.round(value / (largest / 7)) + 8)));
  const bits: number[][] = [];
  const scores: number[] = [];
  for (let slot = 0; slot < count; slot += 1) {
    const row = Array.from({ length: dimension }, (_, index) => ((matrix.row(slot)[index] as number) > (mean[index] as number) ? 1 : 0));
    bits.push(row);
    scores.push(row.reduce((sum: number, bit, index) => sum + bit * ((values[index] as number) - 8), 0));
  }
  return { bits, scores };
}

describe("BinarySketch and the nibble-table kernel", () => {
  it("issue 14: the nibble-table kernel compiles on this runtime", () => {
    expect(nibbleTableKernel()).not.toBeNull();
    expect(new BinarySketch(new DenseMatrix(1, 8)).simd).toBe(true);
  });

  it.each([1, 17, 100, 384])("issue 14: bit codes and kernel scores match a plain-JS reference at dimension %i", (dimension) => {
    // 70 rows: two full groups of 32 and a padded one.
    const matrix = filledMatrix(70, dimension, dimension);
    const next = random(1000 + dimension);
    const query = Array.from({ length: dimension }, () => next() * 2 - 1);
    const expected = reference(matrix, query);
    for (const simd of [true, false]) {
      const sketch = new BinarySketch(matrix, { simd });
      expect(sketch.simd).toBe(simd);
      for (let slot = 0; slot < matrix.count; slot += 1) {
        const bytes = sketch.bits(slot);
        const bits = Array.from({ length: dimension }, (_, index) => ((bytes[index >> 3] as number) >> (index & 7)) & 1);
        expect(bits).toEqual(expected.bits[slot]);
        // No bit is set past the dimension.
        for (let index = dimension; index < bytes.length * 8; index += 1)
          expect(((bytes[index >> 3] as number) >> (index & 7)) & 1).toBe(0);
      }
      expect(Array.from(sketch.scores(query))).toEqual(expected.scores);
    }
  });

  it("issue 14: a zero query scores every row 0", () => {
    const sketch = new BinarySketch(filledMatrix(5, 20, 3));
    expect(Array.from(sketch.scores(new Array(20).fill(0)))).toEqual([0, 0, 0, 0, 0]);
  });

  it("issue 36 (session 17 review): a sketch whose memory the runtime refuses scores in JavaScript, as the reference does", () => {
    if (wasm === undefined) return;
    const matrix = filledMatrix(70, 100, 36);
    const next = random(3600);
    const query = Array.from({ length: 100 }, () => next() * 2 - 1);
    const refused = vi.spyOn(wasm, "Memory").mockImplementation(function refuse() {
      throw new RangeError("WebAssembly.Memory(): could not allocate memory");
    });
    try {
      const sketch = new BinarySketch(matrix);
      expect(refused).toHaveBeenCalled();
      expect(sketch.simd).toBe(false);
      expect(Array.from(sketch.scores(query))).toEqual(reference(matrix, query).scores);
    } finally {
      refused.mockRestore();
    }
  });
});
