import { describe, expect, it } from "vitest";
import { candidatesOf, hit, hintsOf, noHints } from "../test/fixtures.js";
import { buildEvidenceBlocks } from "./build-evidence-blocks.js";
import { rerankCandidates } from "./rerank-candidates.js";

describe("buildEvidenceBlocks", () => {
  it("R20: a block has identity, source, title, breadcrumb, layer, content, readable hit reasons, score and rank", () => {
    const candidates = candidatesOf([
      hit("refunds", 2, {
        score: 0.82,
        title: "Refunds",
        breadcrumb: "Billing > Refunds",
        source: "guides/refunds.md",
        content: "Refunds take five days.",
      }),
    ]);
    const blocks = buildEvidenceBlocks(
      rerankCandidates(candidates, { query: "q", hints: hintsOf({ titles: ["Refunds"] }) })
    );
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
        score: 0.82,
        rankScore: 0.9,
        rank: 1,
      },
    ]);
  });

  it("R20: unknown fields are left out, not set to undefined", () => {
    const candidates = candidatesOf([{ id: "v1", content: "Loose text.", metadata: {} }]);
    const [block] = buildEvidenceBlocks(rerankCandidates(candidates, { query: "q", hints: noHints }));
    expect(Object.keys(block ?? {}).sort()).toEqual(
      ["content", "evidenceKey", "hitReasons", "rank", "rankScore", "retrievalLayer", "source"].sort()
    );
    expect(block?.hitReasons).toEqual(["semantic match (unscored)"]);
  });

  it("R23: the layer is L1 when only query-derived boosts (or none) applied", () => {
    const candidates = candidatesOf([
      hit("a", 0, { score: 0.6, title: "Webhook setup" }),
      hit("b", 0, { score: 0.5, category: "billing" }),
    ]);
    const blocks = buildEvidenceBlocks(
      rerankCandidates(candidates, { query: "webhook", hints: hintsOf({ domains: ["billing"] }) })
    );
    expect(blocks.map((block) => [block.evidenceKey, block.retrievalLayer, block.rank])).toEqual([
      ["a#chunk-0", "L1", 1],
      ["b#chunk-0", "L0+L1", 2],
    ]);
  });
});
