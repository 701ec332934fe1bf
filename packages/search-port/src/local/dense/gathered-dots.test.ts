import { describe, expect, it } from "vitest";
import { DenseMatrix, quantiseVector } from "./dense-matrix.js";
import { GatheredDots } from "./gathered-dots.js";
import { random } from "../test/seeded-random-test-fixtures.js";

describe("issue 14: exact dot products of listed rows", () => {
  it.each([1, 17, 100, 384])("GatheredDots and DenseMatrix.dotsOf give the full scan's values at dimension %i", (dimension) => {
    const next = random(dimension);
    const matrix = new DenseMatrix(300, dimension);
    const codes = new Int8Array(matrix.stride);
    for (let slot = 0; slot < matrix.count; slot += 1) {
      matrix.setRow(
        slot,
        codes,
        quantiseVector(
          Array.from({ length: dimension }, () => next() - 0.5),
          codes,
        ),
      );
    }
    const query = Array.from({ length: dimension }, () => next() - 0.5);
    const slots = Int32Array.from([299, 0, 5, 5, 17, 150]);
    const full = matrix.dots(query);
    const expected = Array.from(slots, (slot) => full.dots[slot]);
    const rescorer = new GatheredDots(matrix);
    for (const listed of [slots, slots.subarray(0, 2), Int32Array.from({ length: 300 }, (_, slot) => slot)]) {
      const gathered = rescorer.dotsOf(query, listed);
      expect(Array.from(gathered.dots)).toEqual(Array.from(listed, (slot) => full.dots[slot]));
      expect(gathered.queryInverseNorm).toBe(full.queryInverseNorm);
    }
    const plain = new Int32Array(slots.length);
    expect(matrix.dotsOf(query, slots, plain)).toBe(full.queryInverseNorm);
    expect(Array.from(plain)).toEqual(expected);
  });
});
