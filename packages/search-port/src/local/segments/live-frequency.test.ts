import { describe, expect, it } from "vitest";
import { random } from "../test/seeded-random-test-fixtures.js";
import { liveFrequency } from "./live-frequency.js";

/** `count` distinct slots below `range`, ascending. */
function ascending(count: number, range: number, next: () => number): Uint32Array {
  const slots = new Set<number>();
  while (slots.size < Math.min(count, range)) slots.add(Math.floor(range * next()));
  return Uint32Array.from([...slots].sort((left, right) => left - right));
}

describe("liveFrequency", () => {
  it("issue 36 item 1: counts a term's postings less the deleted ones, deletions at either end of the list, before or past it, and lists of any relative length", () => {
    const next = random(3601);
    for (let round = 0; round < 2000; round += 1) {
      const range = 1 + Math.floor(300 * next());
      const slots = ascending(Math.floor(range * next()), range, next);
      const deleted = new Set(ascending(Math.floor(range * next() ** 2), range, next));
      // Now and then the list's first and last postings are deleted, or deletions lie only past its end.
      if (round % 5 === 0 && slots.length > 0) deleted.add(slots[0] as number).add(slots[slots.length - 1] as number);
      if (round % 7 === 0) {
        deleted.clear();
        deleted.add(range + 3);
      }
      const deletedSlots = Uint32Array.from([...deleted].sort((left, right) => left - right));
      const expected = [...slots].filter((slot) => !deleted.has(slot)).length;
      expect(liveFrequency(slots, deletedSlots), `round ${round}`).toBe(expected);
    }
    expect(liveFrequency(Uint32Array.of(1, 2), undefined)).toBe(2);
    expect(liveFrequency(new Uint32Array(0), Uint32Array.of(0))).toBe(0);
  });
});
