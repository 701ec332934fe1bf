import { describe, expect, it } from "vitest";
import { DenseMatrix, quantiseVector, strideFor } from "./dense-matrix.js";
import { int8DotKernel } from "./kernels/int8-dot-kernel.js";

function randomVectors(count: number, dimension: number, seed: number): number[][] {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
  return Array.from({ length: count }, () => Array.from({ length: dimension }, next));
}

function cosine(left: number[], right: number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  left.forEach((value, index) => {
    const other = right[index] ?? 0;
    dot += value * other;
    leftNorm += value * value;
    rightNorm += other * other;
  });
  return dot / Math.sqrt(leftNorm * rightNorm);
}

function fill(matrix: DenseMatrix, vectors: number[][]): void {
  const codes = new Int8Array(matrix.stride);
  vectors.forEach((vector, slot) => {
    matrix.setRow(slot, codes, quantiseVector(vector, codes));
  });
}

describe("DenseMatrix", () => {
  it("has a WebAssembly SIMD kernel on this runtime", () => {
    expect(int8DotKernel()).not.toBeNull();
    expect(new DenseMatrix(1, 8).simd).toBe(true);
  });

  it("gives the same cosines with the SIMD kernel and in plain JavaScript, within 1% of float cosines", () => {
    const dimension = 37;
    const vectors = randomVectors(50, dimension, 7);
    const [query] = randomVectors(1, dimension, 99);
    const simd = new DenseMatrix(vectors.length, dimension);
    const plain = new DenseMatrix(vectors.length, dimension, { simd: false });
    expect(plain.simd).toBe(false);
    fill(simd, vectors);
    fill(plain, vectors);
    const fromSimd = new Float32Array(vectors.length);
    const fromPlain = new Float32Array(vectors.length);
    simd.cosines(query as number[], fromSimd);
    plain.cosines(query as number[], fromPlain);
    expect(Array.from(fromSimd)).toEqual(Array.from(fromPlain));
    vectors.forEach((vector, slot) => {
      expect(fromSimd[slot]).toBeCloseTo(cosine(query as number[], vector), 2);
    });
  });

  it("gives exactly the plain sums for 0 to 9 rows of several dimensions, at extreme codes", () => {
    for (const dimension of [1, 16, 17, 100, 384]) {
      for (let count = 0; count <= 9; count += 1) {
        const vectors = randomVectors(count, dimension, 1000 + count * 31 + dimension);
        // Every fourth row at the extremes of int8, to test that no sum overflows.
        vectors.forEach((vector, slot) => {
          if (slot % 4 !== 3) return;
          for (let index = 0; index < vector.length; index += 1) vector[index] = index % 3 === 0 ? -1 : 1;
        });
        const [query] = randomVectors(1, dimension, 5 + dimension);
        const simd = new DenseMatrix(count, dimension);
        const plain = new DenseMatrix(count, dimension, { simd: false });
        fill(simd, vectors);
        fill(plain, vectors);
        const fromSimd = new Float32Array(count + 1).fill(-7);
        const fromPlain = new Float32Array(count + 1).fill(-7);
        simd.cosines(query as number[], fromSimd);
        plain.cosines(query as number[], fromPlain);
        expect(Array.from(fromSimd), `dimension ${dimension}, ${count} rows`).toEqual(Array.from(fromPlain));
        expect(fromSimd[count]).toBe(-7);
      }
    }
  });

  it("pads rows to a multiple of 16 bytes and gives 0 for zero vectors", () => {
    expect(strideFor(1)).toBe(16);
    expect(strideFor(356)).toBe(368);
    const matrix = new DenseMatrix(2, 3);
    fill(matrix, [
      [0, 0, 0],
      [1, 0, 0],
    ]);
    const output = new Float32Array(2);
    matrix.cosines([1, 0, 0], output);
    expect(Array.from(output)).toEqual([0, 1]);
    matrix.cosines([0, 0, 0], output);
    expect(Array.from(output)).toEqual([0, 0]);
  });

  it("issue 14: refuses vectors that do not fit one WebAssembly memory with an error that says so", () => {
    expect(() => new DenseMatrix(12_000_000, 356)).toThrow(
      /12000000 vectors of 356 dimensions need \d+ bytes of WebAssembly memory, more than the 4 GiB/,
    );
    // Without WebAssembly the rows are a plain buffer: no such limit here.
    expect(new DenseMatrix(1000, 356, { simd: false }).count).toBe(1000);
  });
});
