import { describe, expect, it } from "vitest";
import { candidatesOf, hit, hintsOf, noHints } from "../test/fixtures.js";
import { postprocessCandidates } from "./postprocess-candidates.js";

const keys = (items: Array<{ evidenceKey: string }>) => items.map((item) => item.evidenceKey);

describe("postprocessCandidates", () => {
  it("R17: 20 candidates in, at most 5 evidence blocks out (retrieve-k 20, return-n 5)", () => {
    const candidates = candidatesOf(Array.from({ length: 20 }, (_, index) => hit(`doc-${index}`, 0, { score: 0.9 - index / 100 })));
    const output = postprocessCandidates(candidates, {
      query: "q",
      hints: noHints,
      maxChunksPerDocument: 2,
      returnN: 5,
    });
    expect(output.evidenceBlocks).toHaveLength(5);
    expect(output.ranked).toHaveLength(5);
    expect(output.droppedByReturnN).toHaveLength(15);
    expect(output.rerankTrace.entries).toHaveLength(5);
    expect(output.evidenceBlocks.map((block) => block.rank)).toEqual([1, 2, 3, 4, 5]);
  });

  it("R1: dedup runs before the per-document cap, which runs on the port's ranking before rerank", () => {
    const candidates = candidatesOf([
      hit("guide", 0, { score: 0.9 }),
      hit("guide", 0, { score: 0.6, content: "duplicate of chunk 0" }),
      hit("guide", 1, { score: 0.8 }),
      hit("guide", 2, { score: 0.5, title: "Refunds" }),
      hit("other", 0, { score: 0.7 }),
    ]);
    const output = postprocessCandidates(candidates, {
      query: "q",
      hints: hintsOf({ titles: ["Refunds"] }),
      maxChunksPerDocument: 2,
      returnN: 5,
    });
    expect(output.duplicatesMerged).toBe(1);
    // guide#chunk-2 would be boosted by the title hint, but the cap saw the port's order first.
    expect(keys(output.droppedByCap)).toEqual(["guide#chunk-2"]);
    // guide's second block (0.8) keeps 75% of its score in rerank (repeatedDocument 0.25): 0.6, so the other document's best (0.7) goes first.
    expect(keys(output.ranked)).toEqual(["guide#chunk-0", "other#chunk-0", "guide#chunk-1"]);
    expect(output.ranked[0]?.content).toBe("Content of guide chunk 0.");
  });

  it("R16: with the default cap of 2, a third chunk of a document is dropped even when it scores well", () => {
    const candidates = candidatesOf([
      hit("a", 0, { score: 0.9 }),
      hit("a", 1, { score: 0.88 }),
      hit("a", 2, { score: 0.87 }),
      hit("b", 0, { score: 0.4 }),
    ]);
    const output = postprocessCandidates(candidates, {
      query: "q",
      hints: noHints,
      maxChunksPerDocument: 2,
      returnN: 5,
    });
    expect(keys(output.evidenceBlocks)).toEqual(["a#chunk-0", "a#chunk-1", "b#chunk-0"]);
    expect(keys(output.droppedByCap)).toEqual(["a#chunk-2"]);
  });

  it("R16, R17, R18: the returned width takes another document's near-tie best block before a document's second block", () => {
    const candidates = candidatesOf([
      hit("a", 0, { score: 0.9 }),
      hit("a", 1, { score: 0.85 }),
      hit("b", 0, { score: 0.8 }),
      hit("c", 0, { score: 0.7 }),
    ]);
    const options = { query: "q", hints: noHints, maxChunksPerDocument: 2, returnN: 3 };
    const output = postprocessCandidates(candidates, options);
    expect(keys(output.evidenceBlocks)).toEqual(["a#chunk-0", "b#chunk-0", "c#chunk-0"]);
    expect(keys(output.droppedByReturnN)).toEqual(["a#chunk-1"]);
    // With repeatedDocument 0 each block ranks by its own score alone.
    const plain = postprocessCandidates(candidates, { ...options, weights: { repeatedDocument: 0 } });
    expect(keys(plain.evidenceBlocks)).toEqual(["a#chunk-0", "a#chunk-1", "b#chunk-0"]);
  });

  it("R16: unscored candidates are capped after scored ones, in port order", () => {
    const candidates = candidatesOf([hit("a", 0), hit("a", 1, { score: 0.3 }), hit("a", 2, { score: 0.6 })]);
    const output = postprocessCandidates(candidates, {
      query: "q",
      hints: noHints,
      maxChunksPerDocument: 2,
      returnN: 5,
    });
    expect(keys(output.droppedByCap)).toEqual(["a#chunk-0"]);
  });

  it("R18, R19: rerank decides the returned order and the trace covers the returned blocks", () => {
    const candidates = candidatesOf([
      hit("shipping", 0, { score: 0.8 }),
      hit("refunds", 0, { score: 0.76, title: "Refunds", category: "billing" }),
      hit("misc", 0, { score: 0.3 }),
    ]);
    const output = postprocessCandidates(candidates, {
      query: "refunds",
      hints: hintsOf({ titles: ["Refunds"], domains: ["billing"] }),
      maxChunksPerDocument: 2,
      returnN: 2,
    });
    expect(keys(output.evidenceBlocks)).toEqual(["refunds#chunk-0", "shipping#chunk-0"]);
    expect(output.rerankTrace.entries.map((entry) => [entry.rank, entry.evidenceKey, entry.portRank])).toEqual([
      [1, "refunds#chunk-0", 2],
      [2, "shipping#chunk-0", 1],
    ]);
    expect(output.rerankTrace.entries[0]?.boosts.map((boost) => boost.signal)).toEqual(["title", "domain", "query_term"]);
    expect(keys(output.droppedByReturnN)).toEqual(["misc#chunk-0"]);
  });

  it("R6: hints alone produce no evidence blocks", () => {
    const output = postprocessCandidates([], {
      query: "refunds",
      hints: hintsOf({ titles: ["Refunds"], keywords: ["refund"], domains: ["billing"], entities: ["Stripe"] }),
      maxChunksPerDocument: 2,
      returnN: 5,
    });
    expect(output.evidenceBlocks).toEqual([]);
    expect(output.rerankTrace.entries).toEqual([]);
  });
});
