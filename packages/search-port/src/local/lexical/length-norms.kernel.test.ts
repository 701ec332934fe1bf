import { describe, expect, it } from "vitest";
import { random } from "../test/seeded-random-test-fixtures.js";
import { bm25B, bm25K1 } from "./bm25.js";
import { normsOf } from "./length-norms.js";
import { lengthNormsOnKernel } from "./length-norms-kernel.js";

/** The formula as one loop in JavaScript, stored into a `Float32Array`: what the kernel must give. */
function normsInJavaScript(lengths: Uint32Array, count: number, average: number): Float32Array {
  const norms = new Float32Array(count);
  for (let slot = 0; slot < count; slot += 1) norms[slot] = bm25K1 * (1 - bm25B + (bm25B * (lengths[slot] as number)) / average);
  return norms;
}

describe("issue 36 item 5: the records' length norms on the WebAssembly kernel", () => {
  it("gives the bits of the JavaScript loop, for short, long, empty and huge lengths and odd averages", () => {
    const next = random(3651);
    const lengths = Uint32Array.from({ length: 50_000 }, (_, slot) =>
      slot % 997 === 0 ? 0 : slot % 4999 === 0 ? 4_294_967_295 - slot : Math.floor(next() ** 3 * 3000),
    );
    for (const average of [1e-9, 1, 37.123456789, 211.5, 1e7 / 3]) {
      const expected = normsInJavaScript(lengths, 40_000, average);
      const computed = lengthNormsOnKernel(lengths, 40_000, { k1: bm25K1, b: bm25B, average });
      expect(computed).toBeInstanceOf(Float32Array);
      expect(Buffer.from((computed as Float32Array).buffer).equals(Buffer.from(expected.buffer))).toBe(true);
      expect(Buffer.from(normsOf(lengths, 40_000, average).buffer).equals(Buffer.from(expected.buffer))).toBe(true);
    }
  });

  it("leaves fewer lengths than records to the loop (whose reads past the end give NaN norms)", () => {
    expect(lengthNormsOnKernel(new Uint32Array(10), 11, { k1: bm25K1, b: bm25B, average: 3 })).toBeUndefined();
    expect(Number.isNaN(normsOf(new Uint32Array(5000), 5001, 3)[5000])).toBe(true);
  });
});
