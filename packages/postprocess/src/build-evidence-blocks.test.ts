import { describe, expect, it } from "vitest";
import { candidatesOf, hit, hintsOf, noHints } from "../test/fixtures.js";
import { buildEvidenceBlocks } from "./build-evidence-blocks.js";
import { rerankCandidates } from "./rerank-candidates.js";

describe("buildEvidenceBlocks", () => {
  it("R20: a block has identity, source, title, breadcrumb, layer, content, readable hit reasons, score, rank and its chunk's metadata", () => {
    const candidates = candidatesOf([
      hit("refunds", 2, {
        score: 0.82,
        title: "Refunds",
        breadcrumb: "Billing > Refunds",
        source: "guides/refunds.md",
        content: "Refunds take five days.",
      }),
    ]);
    const blocks = buildEvidenceBlocks(rerankCandidates(candidates, { query: "q", hints: hintsOf({ titles: ["Refunds"] }) }), {
      retrievalLayer: "L0+L1",
    });
    expect(blocks).toEqual([
      {
        evidenceKey: "refunds#chunk-2",
        docId: "refunds",
        chunkIndex: 2,
        source: "guides/refunds.md",
        title: "Refunds",
        breadcrumb: "Billing > Refunds",
        retrievalLayer: "L0+L1",
        content: "Refunds take five days.",
        hitReasons: ["semantic match 0.82", 'title matches L0 hint "Refunds"'],
        why: "matches the page title Refunds",
        score: 0.82,
        rankScore: 0.8856,
        rank: 1,
        metadata: { docId: "refunds", chunkIndex: 2, source: "guides/refunds.md", title: "Refunds", breadcrumb: "Billing > Refunds" },
      },
    ]);
  });

  it("R20, issue 35: a block carries its chunk's own metadata as a copy, left out when the hit had none", () => {
    const metadata = { docId: "refunds", chunkIndex: 0, category: "billing", keywords: ["refund"], evidenceKey: "forged" };
    const candidates = candidatesOf([{ content: "Refunds take five days.", metadata }]);
    const [block] = buildEvidenceBlocks(rerankCandidates(candidates, { query: "q", hints: noHints }), { retrievalLayer: "L1" });
    expect(block?.metadata).toEqual(metadata);
    expect(block?.metadata).not.toBe(metadata);
    expect(block?.evidenceKey).toBe("refunds#chunk-0");
  });

  it("R20: unknown fields are left out, not set to undefined", () => {
    const candidates = candidatesOf([{ id: "v1", content: "Loose text.", metadata: {} }]);
    const [block] = buildEvidenceBlocks(rerankCandidates(candidates, { query: "q", hints: noHints }), {
      retrievalLayer: "L1",
    });
    expect(Object.keys(block ?? {}).sort()).toEqual(
      ["content", "evidenceKey", "hitReasons", "rank", "rankScore", "retrievalLayer", "source", "why"].sort(),
    );
    expect(block?.hitReasons).toEqual(["semantic match (unscored)"]);
    expect(block?.why).toBe("similar to the question");
  });

  it("R23: every block carries the lookup's layer; the hit reasons tell which hints touched it", () => {
    const candidates = candidatesOf([
      hit("a", 0, { score: 0.6, title: "Webhook setup" }),
      hit("b", 0, { score: 0.5, category: "billing" }),
    ]);
    const ranked = rerankCandidates(candidates, { query: "webhook", hints: hintsOf({ domains: ["billing"] }) });
    const blocks = buildEvidenceBlocks(ranked, { retrievalLayer: "L0+L1" });
    expect(blocks.map((block) => [block.evidenceKey, block.retrievalLayer, block.rank])).toEqual([
      ["a#chunk-0", "L0+L1", 1],
      ["b#chunk-0", "L0+L1", 2],
    ]);
    expect(blocks[1]?.hitReasons.join("; ")).toMatch(/billing/);
    expect(buildEvidenceBlocks(ranked, { retrievalLayer: "L1" }).map((block) => block.retrievalLayer)).toEqual(["L1", "L1"]);
  });
});
