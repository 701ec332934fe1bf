import { defaultRagConfig, type RetrievalAttempt } from "@lookup-knowledge/core";
import { normalizeHits, postprocessCandidates } from "@lookup-knowledge/postprocess";
import { describe, expect, it } from "vitest";
import { chunkFate } from "./chunk-fate.js";

const hits = [
  {
    id: "a",
    content: "Rotate the webhook signing secret.",
    metadata: { docId: "webhooks", chunkIndex: 0, source: "webhooks.md" },
    score: 0.8,
  },
];
const output = postprocessCandidates(normalizeHits(hits).candidates, {
  query: "rotate the webhook secret",
  hints: { titles: [], keywords: [], domains: [], entities: [], entries: [] },
  maxChunksPerDocument: 2,
  returnN: 5,
});
const attempt = (topScore: number, filterShare?: number): RetrievalAttempt => ({
  attempt: 1,
  query: "rotate the webhook secret",
  topK: 20,
  filter: { category: { $eq: "webhooks" } },
  l0Filter: { category: { $eq: "webhooks" } },
  candidateCount: 1,
  evidenceCount: 1,
  topScore,
  outcome: "low_quality",
  rejectedHits: [],
  durationMs: 1,
  answerability: { score: topScore, model: "answerability-logistic@1", signals: filterShare === undefined ? {} : { filterShare } },
  // As the retriever records a refusal by the filter's share (below 0.95).
  ...(filterShare !== undefined && filterShare < 0.95 ? { leftOutShare: filterShare } : {}),
});

describe("chunkFate of a refused attempt", () => {
  it("R9: names the judged top score below the threshold when that refused it", () => {
    const fate = chunkFate({
      key: "webhooks#chunk-0",
      output,
      trace: attempt(0.02),
      used: false,
      contextPack: undefined,
      config: { ...defaultRagConfig, referenceThreshold: 0.35 },
    });
    expect(fate?.kind).toBe("attempt_refused");
    expect(fate?.message).toMatch(/port rank 1,/);
    expect(fate?.message).toMatch(
      /judged its best match unlikely to answer \(answerability 0\.020, below rag\.reference-threshold=0\.35\)/,
    );
  });

  it("R9: names the L0 filter's share of the scope's best match when the judgement passed but the filter left a better match out", () => {
    const fate = chunkFate({
      key: "webhooks#chunk-0",
      output,
      trace: attempt(0.9, 0.6),
      used: false,
      contextPack: undefined,
      config: defaultRagConfig,
    });
    expect(fate?.message).toMatch(/its L0 filter kept only 0\.600 of the best match of the caller's scope/);
    expect(fate?.message).not.toMatch(/below rag\.reference-threshold/);
  });
});
