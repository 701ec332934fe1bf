import type { L0Hints, SearchHit } from "@lookup-knowledge/core";
import { bench, describe } from "vitest";
import { assessCompleteness, assessRelevance, normalizeHits, packContext, postprocessCandidates, rerankCandidates } from "../src/index.js";

const words = "the refund policy explains how billing works when a webhook fails and rate limit applies to API calls".split(" ");

/** 100 hits of ~1,100 characters over 30 documents, mixed English and Chinese. */
const hits: SearchHit[] = Array.from({ length: 100 }, (_, index) => ({
  id: `v${index}`,
  score: 1 - index / 200,
  content: `${Array.from({ length: 200 }, (_, position) => `${words[(index + position) % words.length]}${position % 17 ? " " : "\n"}`).join(
    "",
  )}退款政策说明。`,
  metadata: {
    docId: `doc-${index % 30}`,
    chunkIndex: index,
    source: `docs/${index % 30}.md`,
    title: index % 7 === 0 ? "Refunds" : `Topic ${index}`,
    breadcrumb: `Billing > Webhooks > Part ${index}`,
    category: index % 2 ? "billing" : "api",
  },
}));

const hints: L0Hints = {
  titles: ["Refunds"],
  keywords: ["rate limit", "webhook", "退款"],
  domains: ["billing"],
  entities: ["Stripe", "API"],
  entries: [{ id: "refunds", source: "docs/refunds.md", matches: [] }],
};
const query = "How do refunds work with the webhook 退款政策?";
const { candidates } = normalizeHits(hits);

describe("postprocess, 100 hits", () => {
  bench("whole chain: normalize -> postprocess -> pack -> assess", () => {
    const normalized = normalizeHits(hits);
    const output = postprocessCandidates(normalized.candidates, { query, hints, maxChunksPerDocument: 2, returnN: 5 });
    const contextPack = packContext(output.evidenceBlocks, { budget: 6000 });
    assessRelevance(output.evidenceBlocks, { referenceThreshold: 0.35 });
    assessCompleteness({
      contextPack,
      droppedByCap: output.droppedByCap.length,
      droppedByReturnN: output.droppedByReturnN.length,
      rejectedHits: normalized.rejected.length,
    });
  });

  bench("normalizeHits", () => {
    normalizeHits(hits);
  });

  bench("rerankCandidates (all 100, no cap)", () => {
    rerankCandidates(candidates, { query, hints });
  });
});
