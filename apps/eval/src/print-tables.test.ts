import { describe, expect, it } from "vitest";
import type { EvaluationRow } from "./evaluate-set.js";
import type { FusionMeasure } from "./choose-fusion-weights.js";
import { ablationTable, fusionTable, worstSets } from "./print-tables.js";

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

describe("fusionTable", () => {
  const measure = (set: string, denseWeight: number, cjkDenseWeight: number, dev: number, test: number): FusionMeasure => ({
    set,
    value: { denseWeight, cjkDenseWeight },
    dev,
    test,
  });
  // The dense part helps scifact; tidb-zh only with a low weight of its own.
  const measures = [
    measure("scifact", 0, 0, 0.6, 0.6),
    measure("scifact", 0.3, 0, 0.7, 0.68),
    measure("scifact", 0.3, 0.3, 0.7, 0.68),
    measure("tidb-zh", 0, 0, 0.77, 0.77),
    measure("tidb-zh", 0.3, 0, 0.78, 0.79),
    measure("tidb-zh", 0.3, 0.3, 0.7, 0.75),
  ];

  it("prints each left-out set worst change first, beside BM25, and the pair chosen on every set", () => {
    const lines = fusionTable(measures, { denseWeight: 0.3, cjkDenseWeight: 0.3 }).split("\n");
    expect(lines[0]).toMatch(/^left out\s+weights chosen \(other \/ CJK\)\s+test nDCG@10\s+at 0\.30 \/ 0\.30/);
    // Without tidb-zh, scifact alone ties (0.3, 0) with (0.3, 0.3): the smaller pair is chosen for tidb-zh.
    expect(lines[2]).toMatch(/^scifact\s+0\.30 \/ 0\.00\s+0\.680\s+0\.680\s+\+0\.000\s+0\.600\s+\+0\.080$/);
    expect(lines[3]).toMatch(/^tidb-zh\s+0\.30 \/ 0\.00\s+0\.790\s+0\.750\s+\+0\.040\s+0\.770\s+\+0\.020$/);
    expect(lines.at(-1)).toBe("chosen on every set's development half (other / CJK): 0.30 / 0.00");
  });
});
