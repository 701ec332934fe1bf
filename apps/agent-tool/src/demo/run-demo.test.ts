import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatLookupResult } from "../format-lookup-result.js";
import { runDemo } from "./run-demo.js";

const knowledgeBase = fileURLToPath(new URL("../../../../examples/knowledge-base", import.meta.url));

describe("the pnpm start demo over examples/knowledge-base", () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), "lookup-knowledge-demo-"));
  });
  afterAll(async () => {
    await rm(dataDirectory, { recursive: true, force: true });
  });

  it("ingests the example base and shows a filtered hit, a fallback, a Chinese answer and no evidence", async () => {
    const { ingest, lookups, traces } = await runDemo({ knowledgeBase, dataDirectory });
    expect(ingest.failed).toEqual([]);
    expect(ingest.added).toBe(ingest.files);
    expect(ingest.files).toBeGreaterThanOrEqual(20);

    const [filtered, fallback, chinese, none] = lookups.map((lookup) => lookup.result);
    // R7: one L0 domain filters the first request, and it is usable.
    expect(filtered?.found).toBe(true);
    expect(filtered?.retrievalTrace.attempts).toHaveLength(1);
    expect(filtered?.retrievalTrace.attempts[0]?.filter).toEqual({ category: { $eq: "billing" } });
    expect(filtered?.evidenceBlocks[0]?.source).toBe("billing/refunds.md");
    // R8/R9: the filtered request is not usable; the retry drops only the L0 filter.
    expect(fallback?.found).toBe(true);
    expect(fallback?.retrievalTrace.fallbackReason).toMatch(/^filtered_vector_(no_evidence|low_quality)$/);
    expect(fallback?.retrievalTrace.attempts[1]?.filter).toBeUndefined();
    expect(fallback?.evidenceBlocks[0]?.source).toBe("integrations/accounting-export.md");
    // A Chinese question finds the Chinese document.
    expect(chinese?.found).toBe(true);
    expect(chinese?.evidenceBlocks[0]?.source).toBe("zh/billing/refunds.md");
    // R11: nothing in the base answers it.
    expect(none).toMatchObject({ found: false, evidenceStatus: "no_evidence" });

    expect(traces).toHaveLength(4);
    for (const lookup of lookups) expect(formatLookupResult(lookup.result)).toContain(lookup.question.replace("？", "?"));
  });

  it("is incremental: a second run writes nothing and answers the same", async () => {
    const again = await runDemo({ knowledgeBase, dataDirectory });
    expect(again.ingest).toMatchObject({ added: 0, changed: 0, removed: 0, chunksWritten: 0 });
    expect(again.ingest.unchanged).toBe(again.ingest.files);
    expect(again.lookups[0]?.result.evidenceBlocks[0]?.source).toBe("billing/refunds.md");
  });
});
