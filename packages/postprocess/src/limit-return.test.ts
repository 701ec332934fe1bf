import { describe, expect, it } from "vitest";
import { limitReturn } from "./limit-return.js";

describe("limitReturn", () => {
  it("R17: 20 ranked in, the first 5 out and the other 15 dropped in order", () => {
    const ranked = Array.from({ length: 20 }, (_, index) => index);
    const { kept, dropped } = limitReturn(ranked, 5);
    expect(kept).toEqual([0, 1, 2, 3, 4]);
    expect(dropped).toEqual(Array.from({ length: 15 }, (_, index) => index + 5));
  });

  it("R17: fewer candidates than return-n are all kept", () => {
    expect(limitReturn(["a", "b"], 5)).toEqual({ kept: ["a", "b"], dropped: [] });
  });

  it("refuses a negative or fractional width", () => {
    expect(() => limitReturn([1], -1)).toThrow(/returnN/);
    expect(() => limitReturn([1], 2.5)).toThrow(/returnN/);
  });
});
