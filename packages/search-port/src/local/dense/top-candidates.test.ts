import { describe, expect, it } from "vitest";
import { random } from "../test/seeded-random-test-fixtures.js";
import { topCandidates } from "./top-candidates.js";
import { topIntegerCandidates } from "./top-integer-candidates.js";

/** The reference: every slot sorted by score, ties to the lower slot, the first `limit`, in slot order. */
function reference(scores: ArrayLike<number>, limit: number, select?: number[]): number[] {
  const slots = select ?? Array.from({ length: scores.length }, (_, slot) => slot);
  return [...slots]
    .sort((left, right) => (scores[right] as number) - (scores[left] as number) || left - right)
    .slice(0, Math.max(0, limit))
    .sort((left, right) => left - right);
}

describe("issue 14: choosing the candidates of approximate dense search", () => {
  it("topCandidates and topIntegerCandidates keep the best scores, ties to the lower slots", () => {
    const next = random(21);
    for (const [count, limit, range] of [
      [0, 5, 3],
      [1, 1, 3],
      [50, 0, 3],
      [50, 60, 3],
      [1000, 37, 5],
      [1000, 400, 200],
      [5000, 123, 40],
    ] as const) {
      const scores = Int32Array.from({ length: count }, () => Math.floor(next() * (2 * range + 1)) - range);
      const expected = reference(scores, limit);
      expect(
        Array.from(topCandidates(scores, limit)).sort((left, right) => left - right),
        `${count} / ${limit}`,
      ).toEqual(expected);
      expect(Array.from(topIntegerCandidates(scores, limit, -range, range)), `${count} / ${limit}`).toEqual(expected);
      const select = Array.from({ length: count }, (_, slot) => slot).filter(() => next() < 0.3);
      expect(Array.from(topCandidates(scores, limit, select)).sort((left, right) => left - right)).toEqual(
        reference(scores, limit, select),
      );
    }
  });
});
