import { describe, expect, it } from "vitest";
import type { QuestionOutcome } from "./evaluate-retriever.js";
import { fitReferenceThreshold, tableThresholds, thresholdTradeOff } from "./threshold-trade-off.js";

function outcome(answerable: boolean, gateScore?: number): QuestionOutcome {
  return {
    id: "q",
    query: "q",
    answerable,
    found: false,
    sources: [],
    firstRelevantRank: null,
    ...(gateScore === undefined ? {} : { gateScore }),
  };
}

describe("the threshold trade-off", () => {
  it("finds a question at a threshold when its gate score reaches it; one without evidence never", () => {
    const rows = thresholdTradeOff([outcome(true, 0.5), outcome(true), outcome(false, 0.3), outcome(false)], [0.3, 0.31, 0.5, 0.51]);
    expect(rows.map((row) => [row.threshold, row.answerableFound, row.outOfScopeRefused])).toEqual([
      [0.3, 1, 1],
      [0.31, 1, 2],
      [0.5, 1, 2],
      [0.51, 0, 2],
    ]);
    expect(rows[1]?.balancedAccuracy).toBeCloseTo(0.75);
  });

  it("fits the threshold of the best balanced accuracy, the lowest of equal ones", () => {
    const best = fitReferenceThreshold([outcome(true, 0.62), outcome(true, 0.7), outcome(false, 0.41), outcome(false, 0.2)]);
    // Every threshold from 0.42 to 0.62 separates the two kinds; the lowest is kept.
    expect(best.threshold).toBe(0.42);
    expect(best.balancedAccuracy).toBe(1);
    expect(fitReferenceThreshold([outcome(true, 0.5), outcome(false, 0.5)], [0.6, 0.2, 0.4]).threshold).toBe(0.2);
  });

  it("the table runs from 0.20 to 0.60 in steps of 0.05", () => {
    expect(tableThresholds).toEqual([0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]);
  });
});
