import { describe, expect, it } from "vitest";
import type { AnswerabilitySample } from "./answerability-samples.js";
import { knowledgeBaseOf, operatingPointGrid, recallFirstThreshold, recallTarget } from "./leave-one-out.js";

function judged(set: string, scores: readonly number[], group: AnswerabilitySample["group"] = "answerable") {
  return scores.map((score, index) => ({
    sample: { set, asked: set, group, id: `${set}-${index}`, split: "dev" as const, topRelevant: false },
    score,
  }));
}

describe("recallFirstThreshold", () => {
  it("picks the highest threshold at which the answerable questions are found 97% of the time, averaged over the sets", () => {
    // Set a: every answer judged 0.6; set b: 49 of 50 at 0.6 and one at 0.1. At 0.6 the mean is
    // (1 + 0.98) / 2 = 0.99 >= 0.97, so 0.5 (the top of the grid) already reaches it.
    expect(recallFirstThreshold([...judged("a", Array(50).fill(0.6)), ...judged("b", [...Array(49).fill(0.6), 0.1])]).threshold).toBe(0.5);
    // Set b finds only 8 of 10 above 0.3: the mean reaches 0.97 only where b's low answers pass.
    const low = [...judged("a", Array(10).fill(0.9)), ...judged("b", [...Array(8).fill(0.9), 0.2, 0.12])];
    const chosen = recallFirstThreshold(low);
    expect(chosen.threshold).toBe(0.12);
    expect(chosen.found.find((entry) => entry.threshold === 0.13)?.found).toBeCloseTo(0.95, 10);
    expect(chosen.found.find((entry) => entry.threshold === 0.12)?.found).toBeGreaterThanOrEqual(recallTarget);
  });

  it("ignores the unanswerable questions, and falls to the grid's lowest threshold when none reaches the target", () => {
    const withOthers = [...judged("a", Array(10).fill(0.9)), ...judged("a", Array(10).fill(0.95), "near")];
    expect(recallFirstThreshold(withOthers).threshold).toBe(0.5);
    const hopeless = judged("a", [0.9, 0, 0, 0]);
    expect(recallFirstThreshold(hopeless).threshold).toBe(operatingPointGrid.at(-1));
  });
});

describe("knowledgeBaseOf", () => {
  it("reads the same pages in two languages as one knowledge base", () => {
    expect(knowledgeBaseOf("apisix-en")).toBe("apisix");
    expect(knowledgeBaseOf("apisix-zh")).toBe("apisix");
    expect(knowledgeBaseOf("sourcegraph-handbook")).toBe("sourcegraph-handbook");
  });
});
