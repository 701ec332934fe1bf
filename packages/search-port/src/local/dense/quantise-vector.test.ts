import { describe, expect, it } from "vitest";
import { quantiseVector } from "./quantise-vector.js";
import { random } from "../test/seeded-random-test-fixtures.js";

describe("issue 36 item 4: quantiseVector straight from a typed row", () => {
  it("gives a Float32Array, a Float64Array and a number[] of the same values the same codes and inverse norm", () => {
    const next = random(36);
    for (let round = 0; round < 50; round += 1) {
      const dimension = 1 + Math.floor(next() * 400);
      const floats = new Float32Array(dimension);
      for (let index = 0; index < dimension; index += 1) floats[index] = next() * 2 - 1;
      const stride = Math.ceil(dimension / 16) * 16;
      const fromFloats = new Int8Array(stride);
      const fromDoubles = new Int8Array(stride);
      const fromArray = new Int8Array(stride);
      const norm = quantiseVector(floats, fromFloats);
      expect(quantiseVector(Float64Array.from(floats), fromDoubles)).toBe(norm);
      expect(quantiseVector(Array.from(floats), fromArray)).toBe(norm);
      expect(fromFloats).toEqual(fromArray);
      expect(fromDoubles).toEqual(fromArray);
      expect(norm).toBeGreaterThan(0);
    }
  });

  it("quantises a view into a larger buffer from its own start, and zero pads past its length", () => {
    const buffer = new Float32Array([9, 9, 0.5, -1, 0.25, 9]);
    const codes = new Int8Array(16).fill(7);
    quantiseVector(buffer.subarray(2, 5), codes);
    expect(Array.from(codes.subarray(0, 4))).toEqual([64, -127, 32, 0]);
    expect(codes.subarray(3).every((code) => code === 0)).toBe(true);
  });
});
