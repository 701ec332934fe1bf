import { describe, expect, it } from "vitest";
import { chooseOnDevelopment, leaveOneOutChoice, type ParameterMeasure, type ParameterSpace } from "./choose-on-development.js";
import { choiceTable } from "./print-tables.js";

const space: ParameterSpace<number> = { name: (share) => share.toFixed(2), order: (a, b) => a - b };
const measure = (set: string, value: number, dev: number, test: number): ParameterMeasure<number> => ({ set, value, dev, test });

// A share helps shardingsphere-en from 0.1 up and tidb-zh from 0.25 up; apisix-en and apisix-zh do not move.
const measures = [
  ...[0, 0.1, 0.25].map((value) => measure("apisix-en", value, 0.84, 0.87)),
  ...[0, 0.1, 0.25].map((value) => measure("apisix-zh", value, 0.83, 0.88)),
  measure("shardingsphere-en", 0, 0.65, 0.69),
  measure("shardingsphere-en", 0.1, 0.68, 0.7),
  measure("shardingsphere-en", 0.25, 0.68, 0.7),
  measure("tidb-zh", 0, 0.76, 0.76),
  measure("tidb-zh", 0.1, 0.76, 0.76),
  measure("tidb-zh", 0.25, 0.78, 0.77),
];

describe("chooseOnDevelopment", () => {
  it("takes the value with the best mean over the development halves, ties to the first in order", () => {
    expect(chooseOnDevelopment(measures, space)).toBe(0.25);
    // Without tidb-zh, 0.1 and 0.25 tie: the smaller one wins.
    expect(chooseOnDevelopment(measures, space, (set) => set !== "tidb-zh")).toBe(0.1);
    expect(chooseOnDevelopment(measures, space, () => false)).toBeUndefined();
  });
});

describe("leaveOneOutChoice", () => {
  it("chooses each set's value without its knowledge base, and names a value that was not measured", () => {
    const rows = leaveOneOutChoice(measures, space, 0.25, 0);
    expect(rows.find((row) => row.set === "tidb-zh")).toEqual({
      set: "tidb-zh",
      chosen: 0.1,
      test: 0.76,
      atCurrent: 0.77,
      atBaseline: 0.76,
    });
    expect(rows.find((row) => row.set === "shardingsphere-en")?.chosen).toBe(0.25);
    expect(() => leaveOneOutChoice(measures, space, 0.3, 0)).toThrow(/not measured at 0\.30/);
  });

  it("choiceTable prints the worst change first, beside the shipped value and the baseline", () => {
    const lines = choiceTable(leaveOneOutChoice(measures, space, 0.25, 0), {
      name: space.name,
      chosen: "share chosen",
      current: 0.25,
      baseline: "share 0",
    }).split("\n");
    expect(lines[0]).toMatch(/^left out\s+share chosen\s+test nDCG@10\s+at 0\.25\s+change\s+share 0\s+- share 0$/);
    expect(lines[2]).toMatch(/^tidb-zh\s+0\.10\s+0\.760\s+0\.770\s+-0\.010\s+0\.760\s+\+0\.000$/);
  });
});
