import { describe, expect, it } from "vitest";
import { candidatesOf, hit, hintsOf } from "../test/fixtures.js";
import { assessRelevance } from "./assess-relevance.js";
import { buildEvidenceBlocks } from "./build-evidence-blocks.js";
import { rerankCandidates } from "./rerank-candidates.js";
import type { RerankWeights } from "./rerank-candidates.js";

const hints = hintsOf({
  titles: ["Refunds"],
  keywords: ["refund", "policy"],
  domains: ["billing"],
  entities: ["Stripe"],
});

function blocksOf(hits: Parameters<typeof candidatesOf>[0], weights?: Partial<RerankWeights>) {
  return buildEvidenceBlocks(rerankCandidates(candidatesOf(hits), { query: "refund policy", hints, weights }), {
    retrievalLayer: "L0+L1",
  });
}

describe("assessRelevance", () => {
  it("R22: a weak 0.2 candidate heavily boosted by hints is not rated by its boosts", () => {
    const blocks = blocksOf(
      [
        hit("refunds", 0, {
          score: 0.2,
          title: "Refunds",
          category: "billing",
          breadcrumb: "Refund policy",
          content: "Refund policy for Stripe payments.",
        }),
      ],
      { title: 3, domain: 2, maxPerSignal: 3, maxBoostShare: 10 },
    );
    // Boosted far past the high mark (0.675) by hints alone...
    expect(blocks[0]?.rankScore).toBeGreaterThan(0.9);
    expect(blocks[0]?.retrievalLayer).toBe("L0+L1");
    // ...it is still judged by the port's 0.2: never "high", and the reason says it is weak.
    const assessment = assessRelevance(blocks, { referenceThreshold: 0.35 });
    expect(assessment.relevanceLevel).toBe("low");
    expect(assessment.reason).toBe("Top similarity 0.20 is below the reference threshold 0.35; the evidence is weakly supported.");
  });

  it("R22: unscored evidence stays unscored however it was boosted", () => {
    const blocks = blocksOf([hit("refunds", 0, { title: "Refunds", category: "billing", content: "Refund policy, Stripe." })]);
    expect(assessRelevance(blocks, { referenceThreshold: 0.35 }).relevanceLevel).toBe("unscored");
  });

  it("R22: high from a top score at or above threshold + (1 - threshold) / 2, medium between", () => {
    const high = assessRelevance(blocksOf([hit("a", 0, { score: 0.675 }), hit("b", 0, { score: 0.4 })]), {
      referenceThreshold: 0.35,
    });
    expect(high).toEqual({
      relevanceLevel: "high",
      reason: "Top similarity 0.68 is at or above the high mark 0.68 (reference threshold 0.35).",
    });
    const medium = assessRelevance(blocksOf([hit("a", 0, { score: 0.5 })]), { referenceThreshold: 0.35 });
    expect(medium.relevanceLevel).toBe("medium");
    expect(medium.reason).toContain("at or above the reference threshold 0.35");
  });

  it("R22: the top port score counts, not the top-ranked block's score", () => {
    const blocks = blocksOf([hit("refunds", 0, { score: 0.3, title: "Refunds" }), hit("other", 0, { score: 0.8 })]);
    expect(assessRelevance(blocks, { referenceThreshold: 0.35 }).relevanceLevel).toBe("high");
  });

  it("refuses a threshold outside 0..1", () => {
    expect(() => assessRelevance([], { referenceThreshold: 1.5 })).toThrow(/referenceThreshold/);
  });

  it("R22: a port's judged probability decides over the blocks' ranking scores: low below 0.5, medium to 0.8, high from there", () => {
    const blocks = blocksOf([hit("refunds", 0, { score: 0.95, content: "Refund policy." })]);
    expect(assessRelevance(blocks, { referenceThreshold: 0.35, judged: 0.4 }).relevanceLevel).toBe("low");
    expect(assessRelevance(blocks, { referenceThreshold: 0.35, judged: 0.4 }).reason).toMatch(/unlikely to answer \(0\.40\)/);
    expect(assessRelevance(blocks, { referenceThreshold: 0.35, judged: 0.6 }).relevanceLevel).toBe("medium");
    expect(assessRelevance(blocks, { referenceThreshold: 0.35, judged: 0.8 }).relevanceLevel).toBe("high");
    expect(assessRelevance(blocks, { referenceThreshold: 0.35 }).relevanceLevel).toBe("high");
  });
});
