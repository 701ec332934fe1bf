import { describe, expect, it } from "vitest";
import { chooseFusionWeights, leaveOneOutFusion, type FusionMeasure } from "./choose-fusion-weights.js";

const measure = (set: string, denseWeight: number, cjkDenseWeight: number, dev: number, test: number): FusionMeasure => ({
  set,
  value: { denseWeight, cjkDenseWeight },
  dev,
  test,
});

// English sets gain from the dense part, the Chinese one loses from it unless its own weight is low.
const measures: FusionMeasure[] = [
  measure("scifact", 0, 0, 0.6, 0.6),
  measure("scifact", 0.3, 0, 0.7, 0.68),
  measure("scifact", 0.3, 0.3, 0.7, 0.68),
  measure("apisix-en", 0, 0, 0.8, 0.8),
  measure("apisix-en", 0.3, 0, 0.82, 0.85),
  measure("apisix-en", 0.3, 0.3, 0.82, 0.85),
  measure("apisix-zh", 0, 0, 0.8, 0.8),
  measure("apisix-zh", 0.3, 0, 0.79, 0.81),
  measure("apisix-zh", 0.3, 0.3, 0.7, 0.72),
  measure("tidb-zh", 0, 0, 0.77, 0.77),
  measure("tidb-zh", 0.3, 0, 0.78, 0.79),
  measure("tidb-zh", 0.3, 0.3, 0.7, 0.75),
];

describe("chooseFusionWeights", () => {
  it("takes the pair with the best mean over the development halves, each set counting once", () => {
    expect(chooseFusionWeights(measures)).toEqual({ denseWeight: 0.3, cjkDenseWeight: 0 });
  });

  it("chooses among the sets kept only, and ties go to the smaller weights", () => {
    // On scifact alone (0.3, 0) and (0.3, 0.3) tie: the smaller one wins.
    expect(chooseFusionWeights(measures, (set) => set === "scifact")).toEqual({ denseWeight: 0.3, cjkDenseWeight: 0 });
    expect(chooseFusionWeights(measures, () => false)).toBeUndefined();
  });
});

describe("leaveOneOutFusion", () => {
  it("chooses each set's weights without its knowledge base: apisix-en and apisix-zh leave each other out", () => {
    // Without the APISIX base, only scifact and tidb-zh decide.
    const rows = leaveOneOutFusion(measures, { denseWeight: 0.3, cjkDenseWeight: 0.3 });
    const zh = rows.find((row) => row.set === "apisix-zh");
    expect(zh).toEqual({ set: "apisix-zh", chosen: { denseWeight: 0.3, cjkDenseWeight: 0 }, test: 0.81, atCurrent: 0.72, atBaseline: 0.8 });
    const tidb = rows.find((row) => row.set === "tidb-zh");
    expect(tidb?.chosen).toEqual({ denseWeight: 0.3, cjkDenseWeight: 0 });
  });

  it("refuses a current pair that was not measured, naming it", () => {
    expect(() => leaveOneOutFusion(measures, { denseWeight: 0.25, cjkDenseWeight: 0.05 })).toThrow(/not measured at 0.25\/0.05/);
  });

  it("refuses to choose when no other knowledge base is measured", () => {
    expect(() =>
      leaveOneOutFusion([measure("apisix-en", 0, 0, 0.8, 0.8), measure("apisix-zh", 0, 0, 0.8, 0.8)], {
        denseWeight: 0,
        cjkDenseWeight: 0,
      }),
    ).toThrow(/no other knowledge base/);
  });
});
