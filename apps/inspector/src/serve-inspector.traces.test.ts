import { describe, expect, it } from "vitest";
import { serveInspector } from "./serve-inspector.js";
import { recordedQueries } from "./test/inspected-base.js";
import { call, getJson, postJson, type Rerank, type Row } from "./test/inspector-http.js";
import { useInspectedBase } from "./test/use-inspected-base.js";

describe("issue 13: the inspector's info and Traces API on the ingested example base", () => {
  const base = useInspectedBase();

  it("issue 13: GET /api/info names the store, its documents and the rag.* settings, and binds 127.0.0.1", async () => {
    expect(base.current.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const info = await getJson<Record<string, unknown>>(base.current, "/api/info");
    expect(info).toMatchObject({ store: "local", documents: base.current.knowledgeBase.documents, queryStorage: "text", traces: true });
    expect(info["config"]).toMatchObject({
      "rag.reference-threshold": base.current.knowledgeBase.retriever.config.referenceThreshold,
      "rag.return-n": 5,
    });
    expect(info["ragKeys"]).toContain("rag.context-budget");
    expect(info["fallbackReasons"]).toEqual(["filtered_vector_no_evidence", "filtered_vector_low_quality", "filtered_vector_error"]);
  });

  it("issue 13: GET /api/traces lists the recorded lookups newest first, with the filters of `traces` and paging", async () => {
    const all = await getJson<{ records: Row[]; hasMore: boolean }>(base.current, "/api/traces");
    expect(all.records.map((row) => row.query)).toEqual([...recordedQueries].reverse());
    expect(all.hasMore).toBe(false);
    const none = await getJson<{ records: Row[] }>(base.current, "/api/traces?noEvidence=true");
    expect(none.records.map((row) => row.query)).toEqual(["What is the boiling point of ethanol?"]);
    const refund = await getJson<{ records: Row[] }>(base.current, "/api/traces?query=paid%20invoice");
    expect(refund.records.map((row) => row.query)).toEqual([recordedQueries[0]]);
    const fallback = all.records.find((row) => row.query === recordedQueries[1]);
    expect(fallback?.fallbackReason).not.toBeNull();
    const byReason = await getJson<{ records: Row[] }>(base.current, `/api/traces?reason=${fallback?.fallbackReason}`);
    expect(byReason.records.map((row) => row.query)).toEqual([recordedQueries[1]]);
    expect((await getJson<{ records: Row[] }>(base.current, "/api/traces?since=1h")).records).toHaveLength(4);
    expect((await getJson<{ records: Row[] }>(base.current, "/api/traces?since=2999-01-01")).records).toHaveLength(0);
    const first = await getJson<{ records: Row[]; hasMore: boolean }>(base.current, "/api/traces?pageSize=3&page=1");
    const second = await getJson<{ records: Row[]; hasMore: boolean }>(base.current, "/api/traces?pageSize=3&page=2");
    expect([first.records.length, first.hasMore, second.records.length, second.hasMore]).toEqual([3, true, 1, false]);
    expect([...first.records, ...second.records].map((row) => row.id)).toEqual(all.records.map((row) => row.id));
    const bad = await call(new URL("/api/traces?reason=nope", base.current.server.url).href);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toContain("reason must be one of filtered_vector_no_evidence");
    expect((await call(new URL("/api/traces?since=yesterday", base.current.server.url).href)).status).toBe(400);
  });

  it("issue 13: GET /api/traces/:id gives the trace whole; its score breakdown is the one a lookup of the same query computes", async () => {
    const { records } = await getJson<{ records: Row[] }>(base.current, "/api/traces");
    const row = records.find((record) => record.query === recordedQueries[0]);
    const trace = await getJson<{
      query: string;
      retrievalDetails: { rerank: Rerank[]; attempts: unknown[]; hints: { domains: string[] } };
    }>(base.current, `/api/traces/${row?.id}`);
    expect(trace.query).toBe(recordedQueries[0]);
    expect(trace.retrievalDetails.attempts.length).toBeGreaterThan(0);
    const rerank = trace.retrievalDetails.rerank;
    expect(rerank.length).toBeGreaterThan(0);
    const played = JSON.parse((await postJson(base.current, "/api/lookup", { query: recordedQueries[0] })).body) as {
      result: { rerankTrace: { entries: Rerank[] } };
    };
    expect(
      played.result.rerankTrace.entries.map(({ evidenceKey, baseScore, finalScore, boosts }) => ({
        evidenceKey,
        baseScore,
        finalScore,
        boosts: boosts.map(({ signal, amount }) => ({ signal, amount })),
      })),
    ).toEqual(rerank.map(({ evidenceKey, baseScore, finalScore, boosts }) => ({ evidenceKey, baseScore, finalScore, boosts })));
    for (const entry of rerank) {
      const sum = (entry.baseScore ?? 0) + entry.boosts.reduce((total, boost) => total + boost.amount, 0);
      expect(entry.finalScore).toBeCloseTo(sum, 3);
    }
    expect((await call(new URL("/api/traces/no-such-id", base.current.server.url).href)).status).toBe(404);
  });
});

describe("issue 13: with traces.store-query hash", () => {
  const base = useInspectedBase({ queryStorage: "hash" });

  it("issue 13: the inspector never shows a query's text when it is stored as a hash", async () => {
    expect(await getJson<{ queryStorage: string }>(base.current, "/api/info")).toMatchObject({ queryStorage: "hash" });
    const { records } = await getJson<{ records: Row[] }>(base.current, "/api/traces");
    expect(records).toHaveLength(4);
    for (const row of records) {
      expect(row.queryIsHash).toBe(true);
      const whole = JSON.stringify(await getJson(base.current, `/api/traces/${row.id}`));
      for (const query of recordedQueries) expect(whole).not.toContain(query);
    }
    const exact = await getJson<{ records: Row[] }>(base.current, `/api/traces?query=${encodeURIComponent(recordedQueries[0] ?? "")}`);
    expect(exact.records).toHaveLength(1);
    expect(exact.records[0]?.query).not.toContain("refund");
  });

  it("issue 13: a record stored as a hash is shown as one even when the setting is now text", async () => {
    const textServer = await serveInspector({
      knowledgeBase: base.current.knowledgeBase,
      traces: base.current.traces,
      queryStorage: "text",
      port: 0,
      redact: (text) => text,
    });
    try {
      const listed = (await (await fetch(new URL("/api/traces", textServer.url))).json()) as { records: Row[] };
      expect(listed.records.length).toBe(4);
      expect(listed.records.every((row) => row.queryIsHash)).toBe(true);
      const one = (await (await fetch(new URL(`/api/traces/${listed.records[0]?.id}`, textServer.url))).json()) as { queryIsHash: boolean };
      expect(one.queryIsHash).toBe(true);
    } finally {
      await textServer.close();
    }
  });
});
