import { describe, expect, it } from "vitest";
import { featureHash } from "./feature-hash.js";

describe("featureHash", () => {
  it("gives fixed unsigned 32-bit values (vectors depend on them)", () => {
    expect(featureHash("")).toBe(2872998923);
    expect(featureHash("hello")).toBe(2290972270);
    expect(featureHash("w\u0001limit")).toBe(911036702);
  });

  it("spreads similar strings over the whole range", () => {
    const buckets = new Array<number>(16).fill(0);
    for (let position = 0; position < 16_000; position += 1) {
      const hash = featureHash(`w\u0001term${position}`);
      expect(hash).toBeGreaterThanOrEqual(0);
      expect(hash).toBeLessThan(2 ** 32);
      const bucket = Math.floor((hash / 2 ** 32) * 16);
      buckets[bucket] = (buckets[bucket] as number) + 1;
    }
    for (const count of buckets) expect(count).toBeGreaterThan(800);
  });
});
