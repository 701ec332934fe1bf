import { defaultRagConfig, emptyL0Hints, type Candidate, type RetrievalAttempt } from "@lookup-knowledge/core";
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

const candidate = (docId: string, chunkIndex: number, score: number, portRank: number): Candidate => ({
  evidenceKey: `${docId}#chunk-${chunkIndex}`,
  docId,
  chunkIndex,
  source: `${docId}.md`,
  content: `Content of ${docId} chunk ${chunkIndex}.`,
  score,
  portRank,
  hitReasons: [],
  metadata: {},
});

const usedAttempt: RetrievalAttempt = {
  attempt: 1,
  query: "q",
  topK: 20,
  candidateCount: 4,
  evidenceCount: 2,
  topScore: 0.9,
  outcome: "usable",
  rejectedHits: [],
  durationMs: 1,
};

describe("chunkFate of a block cut by return-n", () => {
  it("R17, R19: a further block of a document cut by return-n says so when at its own score it would have been returned", () => {
    const config = { ...defaultRagConfig, returnN: 2 };
    const candidates = [candidate("a", 0, 0.9, 0), candidate("a", 1, 0.85, 1), candidate("b", 0, 0.8, 2)];
    const options = { query: "q", hints: emptyL0Hints(), maxChunksPerDocument: 2, returnN: 2 };
    const output = postprocessCandidates(candidates, options);
    const fate = chunkFate({ key: "a#chunk-1", output, trace: usedAttempt, used: true, contextPack: undefined, config });
    expect(fate?.kind).toBe("cut_by_return_n");
    expect(fate?.message).toBe(
      "a#chunk-1 ranked 3 after rerank (port rank 2, score 0.637), below rag.return-n=2. It is a further block of a document ranked above it (block 2 of its document: keeps 75% of its score, rerank weight repeatedDocument); at its own score it would have been returned.",
    );
    // A block cut by return-n on its own score alone says nothing of the kind.
    const plainOutput = postprocessCandidates(candidates, { ...options, weights: { repeatedDocument: 0 } });
    const plain = chunkFate({ key: "b#chunk-0", output: plainOutput, trace: usedAttempt, used: true, contextPack: undefined, config });
    expect(plain?.message).toBe("b#chunk-0 ranked 3 after rerank (port rank 3, score 0.800), below rag.return-n=2.");
    // A further block that its own score would have cut too: the demotion is not blamed.
    const weak = [candidate("a", 0, 0.9, 0), candidate("b", 0, 0.85, 1), candidate("a", 1, 0.3, 2)];
    const weakFate = chunkFate({
      key: "a#chunk-1",
      output: postprocessCandidates(weak, options),
      trace: usedAttempt,
      used: true,
      contextPack: undefined,
      config,
    });
    expect(weakFate?.message).toBe("a#chunk-1 ranked 3 after rerank (port rank 3, score 0.225), below rag.return-n=2.");
  });
});
