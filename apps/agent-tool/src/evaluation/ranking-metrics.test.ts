import { describe, expect, it } from "vitest";
import { mrrAt, ndcgAt, recallAt, scoreRankings } from "./ranking-metrics.js";

const judgments = new Map([
  ["a", 1],
  ["b", 1],
]);

describe("ranking metrics", () => {
  it("nDCG@10 is 1 for the ideal ranking and lower when the relevant documents sink", () => {
    expect(ndcgAt(["a", "b", "x"], judgments, 10)).toBeCloseTo(1);
    const sunk = ndcgAt(["x", "y", "a", "b"], judgments, 10);
    expect(sunk).toBeCloseTo((1 / Math.log2(4) + 1 / Math.log2(5)) / (1 + 1 / Math.log2(3)));
    expect(ndcgAt(["x"], judgments, 10)).toBe(0);
  });

  it("uses graded gains and counts a repeated id once", () => {
    const graded = new Map([
      ["a", 2],
      ["b", 1],
    ]);
    expect(ndcgAt(["b", "a"], graded, 10)).toBeLessThan(1);
    expect(ndcgAt(["a", "a", "b"], graded, 10)).toBeLessThan(ndcgAt(["a", "b"], graded, 10));
  });

  it("recall@k and MRR@k", () => {
    expect(recallAt(["x", "a", "y"], judgments, 5)).toBe(0.5);
    expect(recallAt(["x", "a", "b"], judgments, 2)).toBe(0.5);
    expect(mrrAt(["x", "y", "b"], judgments, 10)).toBeCloseTo(1 / 3);
    expect(mrrAt(["x"], judgments, 10)).toBe(0);
  });

  it("averages over queries", () => {
    const scores = scoreRankings([
      { ranking: ["a", "b"], judgments },
      { ranking: ["x"], judgments },
    ]);
    expect(scores.ndcg10).toBeCloseTo(0.5);
    expect(scores.mrr10).toBeCloseTo(0.5);
  });
});
