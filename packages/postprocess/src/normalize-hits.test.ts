import { describe, expect, it } from "vitest";
import { normalizeHits } from "./normalize-hits.js";

describe("normalizeHits", () => {
  describe("identity", () => {
    it("R14: reads docId and chunkIndex and builds the evidence key", () => {
      const { candidates, rejected } = normalizeHits([
        { id: "v1", content: "Refunds take 5 days.", score: 0.8, metadata: { docId: "billing", chunkIndex: 3 } },
      ]);
      expect(rejected).toEqual([]);
      expect(candidates[0]).toMatchObject({
        docId: "billing",
        chunkIndex: 3,
        vectorId: "v1",
        evidenceKey: "billing#chunk-3",
      });
    });

    it("R14: falls back to doc_id and chunk_index", () => {
      const { candidates } = normalizeHits([{ content: "x", metadata: { doc_id: "faq", chunk_index: 0 } }]);
      expect(candidates[0]).toMatchObject({ docId: "faq", chunkIndex: 0, evidenceKey: "faq#chunk-0" });
    });

    it('R14: accepts a chunk index given as the string "3"', () => {
      const { candidates } = normalizeHits([{ content: "x", metadata: { docId: "faq", chunkIndex: "3" } }]);
      expect(candidates[0]?.chunkIndex).toBe(3);
      expect(candidates[0]?.evidenceKey).toBe("faq#chunk-3");
    });

    it("R14: uses vector:{id} without a chunk index, keeping the docId for the per-document cap", () => {
      const { candidates } = normalizeHits([{ id: "abc-7", content: "x", metadata: { docId: "faq" } }]);
      expect(candidates[0]).toMatchObject({ evidenceKey: "vector:abc-7", docId: "faq", vectorId: "abc-7" });
      expect(candidates[0]?.chunkIndex).toBeUndefined();
    });

    it("R14: turns a numeric id into a string and ignores ids of other types", () => {
      const { candidates, rejected } = normalizeHits([
        { id: 42, content: "x", metadata: {} },
        { id: { nested: true }, content: "y", metadata: { docId: "d", chunkIndex: 1 } },
      ]);
      expect(rejected).toEqual([]);
      expect(candidates[0]).toMatchObject({ vectorId: "42", evidenceKey: "vector:42", source: "vector:42" });
      expect(candidates[1]?.vectorId).toBeUndefined();
      expect(candidates[1]?.evidenceKey).toBe("d#chunk-1");
    });

    it("R14: rejects a hit with no docId+chunkIndex and no id", () => {
      const { candidates, rejected } = normalizeHits([{ content: "x", score: 0.5, metadata: { docId: "faq" } }]);
      expect(candidates).toEqual([]);
      expect(rejected).toEqual([{ index: 0, reason: "no identity: needs docId and chunkIndex metadata, or an id" }]);
    });

    it("R14: the source is metadata.source, else the docId, else vector:{id}", () => {
      const { candidates } = normalizeHits([
        { content: "a", metadata: { docId: "d1", chunkIndex: 0, source: "guides/refunds.md" } },
        { content: "b", metadata: { docId: "d2", chunkIndex: 0 } },
        { id: "v9", content: "c", metadata: {} },
      ]);
      expect(candidates.map((candidate) => candidate.source)).toEqual(["guides/refunds.md", "d2", "vector:v9"]);
    });
  });

  describe("fields", () => {
    it("reads title, breadcrumb and category, keeps port position and gives a semantic hit reason", () => {
      const { candidates } = normalizeHits([
        { id: "skip", content: "   ", metadata: {} },
        {
          content: "Webhooks retry three times.",
          score: 0.816,
          metadata: { docId: "d", chunkIndex: 2, title: "Webhooks", breadcrumb: "API > Webhooks", category: "api" },
        },
        { id: "v3", content: "Unscored.", metadata: {} },
      ]);
      expect(candidates[0]).toMatchObject({
        title: "Webhooks",
        breadcrumb: "API > Webhooks",
        category: "api",
        score: 0.816,
        portRank: 1,
        hitReasons: [{ signal: "semantic", detail: "semantic match 0.82" }],
      });
      expect(candidates[1]).toMatchObject({
        portRank: 2,
        hitReasons: [{ signal: "semantic", detail: "semantic match (unscored)" }],
      });
      expect(candidates[1]?.score).toBeUndefined();
    });

    it("joins a breadcrumb given as a list of headings", () => {
      const { candidates } = normalizeHits([{ id: "v", content: "x", metadata: { breadcrumb: ["Billing", "Refunds"] } }]);
      expect(candidates[0]?.breadcrumb).toBe("Billing > Refunds");
    });

    it("ignores metadata fields of the wrong type instead of rejecting the hit", () => {
      const { candidates, rejected } = normalizeHits([
        { id: "v", content: "x", metadata: { title: 42, breadcrumb: { a: 1 }, category: "  ", source: false } },
      ]);
      expect(rejected).toEqual([]);
      expect(candidates[0]?.title).toBeUndefined();
      expect(candidates[0]?.breadcrumb).toBeUndefined();
      expect(candidates[0]?.category).toBeUndefined();
      expect(candidates[0]?.source).toBe("vector:v");
    });
  });

  describe("malformed port output", () => {
    it("rejects everything when the port did not return an array", () => {
      expect(normalizeHits({ hits: [] })).toEqual({
        candidates: [],
        rejected: [{ index: -1, reason: "port returned object, not an array" }],
        judgementLost: false,
      });
      expect(normalizeHits(null).rejected[0]?.reason).toBe("port returned null, not an array");
      expect(normalizeHits(undefined).rejected[0]?.reason).toBe("port returned undefined, not an array");
    });

    it("rejects hits with missing, non-string or blank content, naming the problem", () => {
      const { candidates, rejected } = normalizeHits([
        { id: "a", metadata: {} },
        { id: "b", content: 12, metadata: {} },
        { id: "c", content: " \n ", metadata: {} },
        { id: "d", content: "fine", metadata: {} },
      ]);
      expect(candidates.map((candidate) => candidate.vectorId)).toEqual(["d"]);
      expect(rejected).toEqual([
        { index: 0, id: "a", reason: "content is missing" },
        { index: 1, id: "b", reason: "content is number, not a string" },
        { index: 2, id: "c", reason: "content is blank" },
      ]);
    });

    it("rejects scores that are NaN, infinite, not numbers or outside 0..1, naming the value", () => {
      const scores: unknown[] = [Number.NaN, Number.POSITIVE_INFINITY, 1.7, -0.1, "0.5", null];
      const { candidates, rejected } = normalizeHits(
        scores.map((score, index) => ({ id: `v${index}`, content: "x", score, metadata: {} })),
      );
      expect(candidates).toEqual([]);
      expect(rejected.map((rejection) => rejection.reason)).toEqual([
        "score NaN is not a finite number",
        "score Infinity is not a finite number",
        "score 1.7 is outside 0..1",
        "score -0.1 is outside 0..1",
        'score "0.5" is string, not a number',
        "score null is null, not a number",
      ]);
    });

    it("accepts the edges 0 and 1 and a missing score", () => {
      const { candidates, rejected } = normalizeHits([
        { id: "a", content: "x", score: 0, metadata: {} },
        { id: "b", content: "x", score: 1, metadata: {} },
        { id: "c", content: "x", metadata: {} },
      ]);
      expect(rejected).toEqual([]);
      expect(candidates.map((candidate) => candidate.score)).toEqual([0, 1, undefined]);
    });

    it("reads missing, null, array or scalar metadata as {} without rejecting the hit", () => {
      const metadatas: unknown[] = [undefined, null, ["docId"], "docId=1", 7];
      const { candidates, rejected } = normalizeHits(metadatas.map((metadata, index) => ({ id: `v${index}`, content: "x", metadata })));
      expect(rejected).toEqual([]);
      expect(candidates.map((candidate) => candidate.metadata)).toEqual([{}, {}, {}, {}, {}]);
      expect(candidates.map((candidate) => candidate.evidenceKey)).toEqual([
        "vector:v0",
        "vector:v1",
        "vector:v2",
        "vector:v3",
        "vector:v4",
      ]);
    });

    it("rejects hits that are not objects, and lists every problem of one hit", () => {
      const { rejected } = normalizeHits([null, "text", { id: "z", content: 5, score: 2, metadata: {} }]);
      expect(rejected).toEqual([
        { index: 0, reason: "hit is null, not an object" },
        { index: 1, reason: "hit is string, not an object" },
        { index: 2, id: "z", reason: "content is number, not a string; score 2 is outside 0..1" },
      ]);
    });

    it("keeps the original port position of valid hits after rejected ones", () => {
      const { candidates } = normalizeHits([{ content: "" }, { id: "b", content: "ok", metadata: {} }]);
      expect(candidates[0]?.portRank).toBe(1);
    });

    it("does not share or mutate the metadata object it was given", () => {
      const metadata = { docId: "d", chunkIndex: 0 };
      const { candidates } = normalizeHits([{ content: "x", metadata }]);
      expect(candidates[0]?.metadata).toEqual(metadata);
      expect(candidates[0]?.metadata).not.toBe(metadata);
    });
  });
});
