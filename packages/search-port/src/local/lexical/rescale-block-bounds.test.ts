import { describe, expect, it } from "vitest";
import { random } from "../test/seeded-random-test-fixtures.js";
import { normsOf } from "./length-norms.js";
import { rescaledBlockBounds } from "./rescale-block-bounds.js";
import { blockBoundsOf, boundBlockPostings } from "./term-score-bounds.js";

describe("issue 36: block bounds stored with a segment's own average length", () => {
  it("issue 36: rescaled to another average, they bound every posting's part under that average, and stay close when the averages agree", () => {
    const next = random(3636);
    let checked = 0;
    for (let round = 0; round < 300; round += 1) {
      const count = 1 + Math.floor(2000 * next());
      const lengths = Uint32Array.from({ length: count }, () => 1 + Math.floor((round % 3 === 0 ? 3 : 300) * next() ** 2));
      const postings = [...Array(count).keys()].filter(() => next() < 0.6);
      if (postings.length === 0) continue;
      const slots = Uint32Array.from(postings);
      // Frequencies up to the cap now and then: the part nears 1.
      const frequencies = Uint16Array.from(slots, () => (next() < 0.05 ? 65535 : 1 + Math.floor(20 * next() ** 3)));
      const storedAverage = 0.5 + 400 * next();
      // Another average: far below, far above, or within a rounding of the stored one.
      const average = [storedAverage * (0.01 + 2 * next()), storedAverage * (1 + 1e-7), storedAverage * 50][round % 3] as number;
      const stored = blockBoundsOf({ slots, frequencies }, normsOf(lengths, count, storedAverage));
      const rescaled = rescaledBlockBounds(stored, storedAverage, average);
      const exact = blockBoundsOf({ slots, frequencies }, normsOf(lengths, count, average));
      expect(rescaled.blockFirst).toBe(stored.blockFirst);
      expect(rescaled.blockLast).toBe(stored.blockLast);
      for (let block = 0; block < exact.blocks.length; block += 1) {
        const bound = rescaled.blocks[block] as number;
        const largest = exact.blocks[block] as number;
        expect(bound, `round ${round}, block ${block}`).toBeGreaterThanOrEqual(largest);
        // Not a bound of 1 everywhere: within the slack of the exact one when the stored average is the shorter.
        if (average >= storedAverage && average <= storedAverage * (1 + 1e-6)) expect(bound).toBeLessThanOrEqual(largest * (1 + 1e-5));
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(300 * (600 / boundBlockPostings) * 0.5);
  });
});
