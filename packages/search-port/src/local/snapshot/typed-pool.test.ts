import { describe, expect, it } from "vitest";
import { TypedPool } from "./typed-pool.js";

describe("TypedPool", () => {
  it("issue 36 item 4: hands out zero-filled arrays of the lengths asked, none sharing an element with another, views of shared blocks but one longer than a block", () => {
    const pool = new TypedPool((length) => new Uint32Array(length), 16);
    const lengths = [5, 0, 7, 4, 16, 3, 17, 9, 9, 1];
    const taken = lengths.map((length) => pool.take(length));
    taken.forEach((array, index) => {
      expect(array.length).toBe(lengths[index]);
      expect([...array].every((value) => value === 0)).toBe(true);
      array.fill(index + 1);
    });
    // Each kept what was written to it: no two overlap.
    for (const [index, array] of taken.entries()) expect([...array].every((value) => value === index + 1)).toBe(true);
    // 5 + 0 + 7 + 4 fill the first block; the longer-than-a-block array is its own.
    expect(taken[0]?.buffer).toBe(taken[3]?.buffer);
    expect(taken[4]?.buffer).not.toBe(taken[3]?.buffer);
    expect(taken[6]?.buffer.byteLength).toBe(17 * 4);
    expect(taken[6]?.buffer).not.toBe(taken[5]?.buffer);
  });
});
