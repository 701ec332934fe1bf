import { createL0Index } from "@lookup-knowledge/l0-hints";
import { createScriptedSearchPort, type ScriptedAnswer } from "@lookup-knowledge/search-port/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createKnowledgeRetriever } from "./create-knowledge-retriever.js";
import { billingEntries, hit } from "./test/fixtures.js";

const l0Index = createL0Index(billingEntries);

const hitArbitrary = fc
  .record({
    docId: fc.constantFrom("billing/refunds", "billing/invoices", "integrations/webhooks", "other"),
    chunkIndex: fc.integer({ min: 0, max: 3 }),
    score: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    category: fc.constantFrom("billing", "integrations", undefined),
    title: fc.constantFrom("Refunds", "Invoices", "Webhooks", undefined),
  })
  .map(({ docId, chunkIndex, score, category, title }) =>
    hit(docId, chunkIndex, score, {
      ...(category ? { category } : {}),
      ...(title ? { title } : {}),
      content: `About ${docId}, refund and webhook.`,
    }),
  );

const answerArbitrary: fc.Arbitrary<ScriptedAnswer> = fc.oneof(
  { weight: 6, arbitrary: fc.array(hitArbitrary, { maxLength: 25 }) },
  { weight: 1, arbitrary: fc.constant({ throws: new Error("port down") }) },
  { weight: 1, arbitrary: fc.constant({ hits: [{ content: 7 }, { id: "v", content: "x", score: 3 }] }) },
);

describe("retriever invariants", () => {
  it("R6, R10, R11, R16, R17, R22: whatever the port answers, the result keeps the contract", async () => {
    let retried = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(answerArbitrary, { minLength: 2, maxLength: 2 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 3 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        // "refund window" makes the L0 filter, so the filtered-then-retry path is walked too.
        fc.constantFrom("refund", "refund window", "webhook refund", "invoice", "something else"),
        async (answers, returnN, maxChunks, threshold, query) => {
          const port = createScriptedSearchPort(answers);
          const retriever = createKnowledgeRetriever({
            searchPort: port,
            l0Index,
            config: { retrieveK: 25, returnN, maxChunksPerDocument: maxChunks, referenceThreshold: threshold },
          });
          const result = await retriever.lookup(query);
          const { attempts, fallbackReason } = result.retrievalTrace;
          expect(attempts.length).toBeGreaterThanOrEqual(1);
          expect(attempts.length).toBeLessThanOrEqual(2);
          expect(port.calls).toBe(attempts.length);
          if (attempts.length === 2) {
            retried += 1;
            expect(attempts[0]?.l0Filter).toBeDefined();
            expect(attempts[0]?.outcome).not.toBe("usable");
            expect(fallbackReason).toBeDefined();
            expect(attempts[1]?.l0Filter).toBeUndefined();
          } else {
            expect(fallbackReason).toBeUndefined();
          }
          if (!result.found) {
            expect(result.evidenceBlocks).toEqual([]);
            expect(attempts.every((attempt) => attempt.outcome !== "usable")).toBe(true);
            return;
          }
          const blocks = result.evidenceBlocks;
          expect(blocks.length).toBeGreaterThan(0);
          expect(blocks.length).toBeLessThanOrEqual(returnN);
          expect(new Set(blocks.map((block) => block.evidenceKey)).size).toBe(blocks.length);
          const perDocument = new Map<string, number>();
          for (const block of blocks)
            perDocument.set(block.docId ?? block.evidenceKey, (perDocument.get(block.docId ?? block.evidenceKey) ?? 0) + 1);
          expect(Math.max(...perDocument.values())).toBeLessThanOrEqual(maxChunks);
          // Every block is a port hit of the attempt it came from: never an L0 entry.
          const usable = attempts.find((attempt) => attempt.outcome === "usable");
          const answer = answers[(usable?.attempt ?? 1) - 1];
          const keys = new Set(
            Array.isArray(answer) ? answer.map((h) => `${String(h.metadata.docId)}#chunk-${String(h.metadata.chunkIndex)}`) : [],
          );
          for (const block of blocks) expect(keys.has(block.evidenceKey)).toBe(true);
          // Relevance never claims support L1 did not give.
          expect(["high", "medium", "unscored"]).toContain(result.relevanceLevel);
          const scores = blocks.flatMap((block) => (block.score === undefined ? [] : [block.score]));
          if (scores.length > 0) expect(Math.max(...scores)).toBeGreaterThanOrEqual(threshold);
          else expect(result.relevanceLevel).toBe("unscored");
        },
      ),
      { numRuns: 300 },
    );
    // The runs walked the L0-filtered attempt and its retry too.
    expect(retried).toBeGreaterThan(0);
  });
});
