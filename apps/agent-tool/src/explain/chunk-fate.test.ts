import { defaultRagConfig, emptyL0Hints, type Candidate, type RetrievalAttempt } from "@lookup-knowledge/core";
import { postprocessCandidates } from "@lookup-knowledge/postprocess";
import { describe, expect, it } from "vitest";
import { chunkFate } from "./chunk-fate.js";

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

const trace: RetrievalAttempt = {
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

describe("chunkFate", () => {
  it("issue 32: a further block of a document cut by return-n says the repeated-document demotion put other documents first", () => {
    const config = { ...defaultRagConfig, returnN: 2 };
    const candidates = [candidate("a", 0, 0.9, 0), candidate("a", 1, 0.85, 1), candidate("b", 0, 0.8, 2)];
    const options = { query: "q", hints: emptyL0Hints(), maxChunksPerDocument: 2, returnN: 2 };
    const output = postprocessCandidates(candidates, options);
    const fate = chunkFate({ key: "a#chunk-1", output, trace, used: true, contextPack: undefined, config });
    expect(fate?.kind).toBe("cut_by_return_n");
    expect(fate?.message).toBe(
      "a#chunk-1 ranked 3 after rerank (port rank 2, score 0.637), below rag.return-n=2. It is a further block of a document ranked above it (block 2 of its document: keeps 75% of its score, rerank weight repeatedDocument), so other documents' best blocks came first.",
    );
    // A block cut by return-n on its own score alone says nothing of the kind.
    const plainOutput = postprocessCandidates(candidates, { ...options, weights: { repeatedDocument: 0 } });
    const plain = chunkFate({ key: "b#chunk-0", output: plainOutput, trace, used: true, contextPack: undefined, config });
    expect(plain?.message).toBe("b#chunk-0 ranked 3 after rerank (port rank 3, score 0.800), below rag.return-n=2.");
  });
});
