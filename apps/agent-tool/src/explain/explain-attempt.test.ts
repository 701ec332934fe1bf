import { defaultRagConfig, type RetrievalAttempt } from "@lookup-knowledge/core";
import { normalizeHits } from "@lookup-knowledge/postprocess";
import { describe, expect, it } from "vitest";
import { explainAttempt } from "./explain-attempt.js";

const trace: RetrievalAttempt = {
  attempt: 1,
  query: "turn a plugin on for every route",
  topK: 20,
  candidateCount: 1,
  evidenceCount: 1,
  topScore: 0.9,
  outcome: "usable",
  rejectedHits: [],
  durationMs: 1,
};
const hitOf = (docId: string, chunkIndex: number, score: number) => ({
  id: `${docId}#chunk-${chunkIndex}`,
  content: `${docId} ${chunkIndex}`,
  metadata: { docId, chunkIndex, source: `${docId}.md` },
  score,
});

describe("explainAttempt", () => {
  it("issue 32: summarises a document by its best-placed chunk: one found deeper beats one not found at all", async () => {
    // Rank 90 in the deeper search for chunk 0; chunk 1 nowhere in the top 200.
    const deeper = [...Array.from({ length: 89 }, (_, index) => hitOf(`other/${index}`, 0, 0.5)), hitOf("rules/global", 0, 0.1)];
    const explained = await explainAttempt(
      { input: "rules/global", kind: "document", docId: "rules/global", chunkCount: 2, inIndex: true, records: new Map() },
      {
        trace,
        record: { attempt: 1, candidates: [] },
        used: true,
        contextPack: undefined,
        config: defaultRagConfig,
        callerFilter: undefined,
        searchDeeper: async () => ({ candidates: normalizeHits(deeper).candidates }),
        metadataOf: async () => undefined,
        searchedTo: 200,
      },
    );
    expect(explained.outcome.kind).toBe("beyond_retrieve_k");
    expect(explained.outcome.portRank).toBe(90);
    expect(explained.outcome.message).toMatch(/best chunk: rules\/global#chunk-0 ranked 90/);
  });
});
