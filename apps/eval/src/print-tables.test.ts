import { describe, expect, it } from "vitest";
import type { EvaluationRow } from "./evaluate-set.js";
import { ablationTable, worstSets } from "./print-tables.js";

const scores = (ndcg10: number) => ({ ndcg10, recall5: ndcg10, recall20: ndcg10, mrr10: ndcg10 });

const rows: EvaluationRow[] = [
  { set: "a", system: "BM25 whole files", scores: scores(0.5) },
  { set: "a", system: "hybrid (port, defaults)", scores: scores(0.6) },
  {
    set: "a",
    system: "retriever",
    scores: scores(0.55),
    found: [9, 10],
    near: [1, 4],
    nearHeld: [3, 4],
    cross: [5, 10],
    crossHeld: [9, 10],
  },
  { set: "b", system: "BM25 whole files", scores: scores(0.7) },
  { set: "b", system: "hybrid (port, defaults)", scores: scores(0.65) },
  { set: "b", system: "retriever", scores: scores(0.66), found: [10, 10], near: [2, 4], nearHeld: [2, 4] },
];

describe("worstSets", () => {
  it("finds, on each measure, the set where the system does worst, nDCG against the baselines on the same files", () => {
    const { value, set } = worstSets(rows, "retriever");
    expect(value.ndcgWhole).toBeCloseTo(-0.04, 10);
    expect(set.ndcgWhole).toBe("b");
    expect(value.ndcgHybrid).toBeCloseTo(-0.05, 10);
    expect(set.ndcgHybrid).toBe("a");
    expect([value.found, set.found]).toEqual([0.9, "a"]);
    expect([value.near, set.near]).toEqual([0.25, "a"]);
    expect([value.nearHeld, set.nearHeld]).toEqual([0.5, "b"]);
    // Only set a has cross-collection questions; b does not count on that measure.
    expect([value.cross, set.cross]).toEqual([0.5, "a"]);
  });

  it("ablationTable prints one line per variant with its worst values", () => {
    const table = ablationTable(rows, ["retriever"]);
    expect(table.split("\n")).toHaveLength(3);
    expect(table).toMatch(/^retriever +-0\.040 +-0\.050 +0\.550 +90% +25% +50% +50% +90%$/m);
  });
});
