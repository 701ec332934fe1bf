import { describe, expect, it } from "vitest";
import { recordedQueries } from "./test/inspected-base.js";
import { postJson } from "./test/inspector-http.js";
import { useInspectedBase } from "./test/use-inspected-base.js";

describe("issue 13: the inspector's playground API on the ingested example base", () => {
  const base = useInspectedBase();

  it("issue 13: POST /api/lookup runs with rag.* overrides and a filter, is not recorded, and leaves the index as it was", async () => {
    const before = await base.current.traces.count();
    const chunks = base.current.knowledgeBase.store.localIndex?.stats().chunks;
    const answer = await postJson(base.current, "/api/lookup", {
      query: recordedQueries[0],
      config: { "rag.return-n": 2, "rag.reference-threshold": "0.2" },
      filter: { category: "billing" },
    });
    expect(answer.status, answer.body).toBe(200);
    const run = JSON.parse(answer.body) as {
      config: Record<string, unknown>;
      result: { found: boolean; evidenceBlocks: Array<{ source: string }>; contextPack: { blocks: Array<{ content: string }> } };
    };
    expect(run.config).toMatchObject({ "rag.return-n": 2, "rag.reference-threshold": 0.2 });
    expect(run.result.found).toBe(true);
    expect(run.result.evidenceBlocks.length).toBeLessThanOrEqual(2);
    expect(run.result.evidenceBlocks[0]?.source).toBe("billing/refunds.md");
    expect(run.result.contextPack.blocks[0]?.content.length).toBeGreaterThan(160);
    expect(await base.current.traces.count()).toBe(before);
    expect(base.current.knowledgeBase.store.localIndex?.stats().chunks).toBe(chunks);
    const badKey = await postJson(base.current, "/api/lookup", { query: "refund", config: { "rag.nope": 1 } });
    expect([badKey.status, JSON.parse(badKey.body).error.message]).toEqual([400, expect.stringContaining("rag.nope")]);
    const badValue = await postJson(base.current, "/api/lookup", { query: "refund", config: { "rag.return-n": "many" } });
    expect([badValue.status, JSON.parse(badValue.body).error.message]).toEqual([400, expect.stringContaining("rag.return-n")]);
    expect((await postJson(base.current, "/api/lookup", { query: "  " })).status).toBe(400);
  });

  it("issue 13: POST /api/compare says which blocks changed rank, entered or left between configurations A and B", async () => {
    const answer = await postJson(base.current, "/api/compare", { query: recordedQueries[0], a: {}, b: { "rag.return-n": 2 } });
    expect(answer.status, answer.body).toBe(200);
    const { a, b, changes } = JSON.parse(answer.body) as {
      a: { result: { evidenceBlocks: unknown[] } };
      b: { result: { evidenceBlocks: unknown[] } };
      changes: Array<{ rankA: number | null; rankB: number | null; change: string }>;
    };
    expect(a.result.evidenceBlocks.length).toBeGreaterThan(2);
    expect(b.result.evidenceBlocks).toHaveLength(2);
    expect(changes.filter((change) => change.change === "left").map((change) => change.rankA)).toEqual(
      Array.from({ length: a.result.evidenceBlocks.length - 2 }, (_, index) => index + 3),
    );
    expect(changes.filter((change) => change.change === "same").map((change) => change.rankB)).toEqual([1, 2]);
  });
});
