import { describe, expect, it } from "vitest";
import { recordedQueries } from "./test/inspected-base.js";
import { getJson, postJson, type Rerank } from "./test/inspector-http.js";
import { useInspectedBase } from "./test/use-inspected-base.js";

describe("issue 13: the inspector's sources and why-not API on the ingested example base", () => {
  const base = useInspectedBase();

  it("issue 13: GET /api/sources finds documents of the ingest manifest by path or title", async () => {
    const byPath = await getJson<{ documents: Array<{ source: string; title?: string }> }>(base.current, "/api/sources?q=billing/ref");
    expect(byPath.documents).toContainEqual(expect.objectContaining({ source: "billing/refunds.md", title: "Refunds" }));
    expect(byPath.documents.every((document) => document.source.includes("billing/ref"))).toBe(true);
    const byTitle = await getJson<{ documents: Array<{ source: string }> }>(base.current, "/api/sources?q=REFUNDS");
    expect(byTitle.documents.map((document) => document.source)).toContain("billing/refunds.md");
  });

  it("issue 13: POST /api/why-not explains a chosen document: included with its score and boosts, cut by return-n, not in the index", async () => {
    const why = async (expected: string, config: Record<string, unknown> = {}) => {
      const answer = await postJson(base.current, "/api/why-not", { query: recordedQueries[0], expected, config });
      expect(answer.status, answer.body).toBe(200);
      return JSON.parse(answer.body) as {
        found: boolean;
        attempts: Array<{
          outcome: { kind: string; evidenceKey?: string; rank?: number; score?: number; baseScore?: number; returnN?: number };
        }>;
      };
    };
    const before = await base.current.traces.count();
    const included = await why("billing/refunds.md");
    expect(included.found).toBe(true);
    const outcome = included.attempts[0]?.outcome;
    expect(outcome).toMatchObject({ kind: "included", rank: 1 });
    const played = JSON.parse((await postJson(base.current, "/api/lookup", { query: recordedQueries[0] })).body) as {
      result: { rerankTrace: { entries: Rerank[] } };
    };
    const entry = played.result.rerankTrace.entries.find((candidate) => candidate.evidenceKey === outcome?.evidenceKey);
    expect(outcome?.baseScore).toBeCloseTo(entry?.baseScore ?? Number.NaN, 3);
    expect(outcome?.score).toBeCloseTo(entry?.finalScore ?? Number.NaN, 3);
    const cut = await why("billing/credit-notes.md", { "rag.return-n": "2" });
    expect(cut.found).toBe(false);
    expect(cut.attempts[0]?.outcome).toMatchObject({ kind: "cut_by_return_n", returnN: 2 });
    expect(cut.attempts[0]?.outcome.rank).toBeGreaterThan(2);
    expect((await why("security/no-such-page.md")).attempts[0]?.outcome.kind).toBe("not_in_index");
    expect(await base.current.traces.count()).toBe(before);
    expect((await postJson(base.current, "/api/why-not", { query: "refund" })).status).toBe(400);
    // The config is read as the playground reads it (one readConfig): a bad key or value is a 400 naming it.
    for (const [config, named] of [
      [{ "rag.nope": 1 }, "rag.nope"],
      [{ "rag.return-n": "many" }, "rag.return-n"],
      [[1], "config must be an object"],
    ] as const) {
      const bad = await postJson(base.current, "/api/why-not", { query: "refund", expected: "billing/refunds.md", config });
      expect([bad.status, JSON.parse(bad.body).error.message]).toEqual([400, expect.stringContaining(named)]);
    }
  });
});
