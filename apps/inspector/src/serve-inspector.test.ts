import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveInspector } from "./serve-inspector.js";
import { exampleKnowledgeBase, inspectExampleBase, recordedQueries, type InspectedBase } from "./test/inspected-base.js";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so the Host and Origin headers are exactly what the test says. */
function call(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

async function getJson<T>(base: InspectedBase, path: string): Promise<T> {
  const answer = await call(new URL(path, base.server.url).href);
  expect(answer.status, answer.body).toBe(200);
  return JSON.parse(answer.body) as T;
}

async function postJson(base: InspectedBase, path: string, body: unknown): Promise<Answer> {
  return call(new URL(path, base.server.url).href, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

interface Row {
  id: string;
  query: string;
  queryIsHash: boolean;
  found: boolean;
  fallbackReason: string | null;
  evidenceCount: number;
}
interface Rerank {
  evidenceKey: string;
  baseScore?: number;
  finalScore: number;
  boosts: Array<{ signal: string; amount: number }>;
}

describe("issue 13: the inspector's HTTP API on the ingested example base", () => {
  let base: InspectedBase;
  beforeAll(async () => {
    base = await inspectExampleBase();
  }, 120_000);
  afterAll(async () => {
    await base?.close();
  });

  it("issue 13: GET /api/info names the store, its documents and the rag.* settings, and binds 127.0.0.1", async () => {
    expect(base.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const info = await getJson<Record<string, unknown>>(base, "/api/info");
    expect(info).toMatchObject({ store: "local", documents: base.knowledgeBase.documents, queryStorage: "text", traces: true });
    expect(info["config"]).toMatchObject({
      "rag.reference-threshold": base.knowledgeBase.retriever.config.referenceThreshold,
      "rag.return-n": 5,
    });
    expect(info["ragKeys"]).toContain("rag.context-budget");
  });

  it("issue 13: GET /api/traces lists the recorded lookups newest first, with the filters of `traces` and paging", async () => {
    const all = await getJson<{ records: Row[]; hasMore: boolean }>(base, "/api/traces");
    expect(all.records.map((row) => row.query)).toEqual([...recordedQueries].reverse());
    expect(all.hasMore).toBe(false);
    const none = await getJson<{ records: Row[] }>(base, "/api/traces?noEvidence=true");
    expect(none.records.map((row) => row.query)).toEqual(["What is the boiling point of ethanol?"]);
    const refund = await getJson<{ records: Row[] }>(base, "/api/traces?query=paid%20invoice");
    expect(refund.records.map((row) => row.query)).toEqual([recordedQueries[0]]);
    const fallback = all.records.find((row) => row.query === recordedQueries[1]);
    expect(fallback?.fallbackReason).not.toBeNull();
    const byReason = await getJson<{ records: Row[] }>(base, `/api/traces?reason=${fallback?.fallbackReason}`);
    expect(byReason.records.map((row) => row.query)).toEqual([recordedQueries[1]]);
    expect((await getJson<{ records: Row[] }>(base, "/api/traces?since=1h")).records).toHaveLength(4);
    expect((await getJson<{ records: Row[] }>(base, "/api/traces?since=2999-01-01")).records).toHaveLength(0);
    const first = await getJson<{ records: Row[]; hasMore: boolean }>(base, "/api/traces?pageSize=3&page=1");
    const second = await getJson<{ records: Row[]; hasMore: boolean }>(base, "/api/traces?pageSize=3&page=2");
    expect([first.records.length, first.hasMore, second.records.length, second.hasMore]).toEqual([3, true, 1, false]);
    expect([...first.records, ...second.records].map((row) => row.id)).toEqual(all.records.map((row) => row.id));
    const bad = await call(new URL("/api/traces?reason=nope", base.server.url).href);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toContain("reason must be one of filtered_vector_no_evidence");
    expect((await call(new URL("/api/traces?since=yesterday", base.server.url).href)).status).toBe(400);
  });

  it("issue 13: GET /api/traces/:id gives the trace whole; its score breakdown is the one a lookup of the same query computes", async () => {
    const { records } = await getJson<{ records: Row[] }>(base, "/api/traces");
    const row = records.find((record) => record.query === recordedQueries[0]);
    const trace = await getJson<{
      query: string;
      retrievalDetails: { rerank: Rerank[]; attempts: unknown[]; hints: { domains: string[] } };
    }>(base, `/api/traces/${row?.id}`);
    expect(trace.query).toBe(recordedQueries[0]);
    expect(trace.retrievalDetails.attempts.length).toBeGreaterThan(0);
    const rerank = trace.retrievalDetails.rerank;
    expect(rerank.length).toBeGreaterThan(0);
    const played = JSON.parse((await postJson(base, "/api/lookup", { query: recordedQueries[0] })).body) as {
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
    expect((await call(new URL("/api/traces/no-such-id", base.server.url).href)).status).toBe(404);
  });

  it("issue 13: POST /api/lookup runs with rag.* overrides and a filter, is not recorded, and leaves the index as it was", async () => {
    const before = await base.traces.count();
    const chunks = base.knowledgeBase.store.localIndex?.stats().chunks;
    const answer = await postJson(base, "/api/lookup", {
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
    expect(await base.traces.count()).toBe(before);
    expect(base.knowledgeBase.store.localIndex?.stats().chunks).toBe(chunks);
    const badKey = await postJson(base, "/api/lookup", { query: "refund", config: { "rag.nope": 1 } });
    expect([badKey.status, JSON.parse(badKey.body).error.message]).toEqual([400, expect.stringContaining("rag.nope")]);
    const badValue = await postJson(base, "/api/lookup", { query: "refund", config: { "rag.return-n": "many" } });
    expect([badValue.status, JSON.parse(badValue.body).error.message]).toEqual([400, expect.stringContaining("rag.return-n")]);
    expect((await postJson(base, "/api/lookup", { query: "  " })).status).toBe(400);
  });

  it("issue 13: POST /api/compare says which blocks changed rank, entered or left between configurations A and B", async () => {
    const answer = await postJson(base, "/api/compare", { query: recordedQueries[0], a: {}, b: { "rag.return-n": 2 } });
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

  it("issue 13: GET /api/sources finds documents of the ingest manifest by path or title", async () => {
    const byPath = await getJson<{ documents: Array<{ source: string; title?: string }> }>(base, "/api/sources?q=billing/ref");
    expect(byPath.documents).toContainEqual(expect.objectContaining({ source: "billing/refunds.md", title: "Refunds" }));
    expect(byPath.documents.every((document) => document.source.includes("billing/ref"))).toBe(true);
    const byTitle = await getJson<{ documents: Array<{ source: string }> }>(base, "/api/sources?q=REFUNDS");
    expect(byTitle.documents.map((document) => document.source)).toContain("billing/refunds.md");
  });

  it("issue 13: POST /api/why-not explains a chosen document: included with its score and boosts, cut by return-n, not in the index", async () => {
    const why = async (expected: string, config: Record<string, unknown> = {}) => {
      const answer = await postJson(base, "/api/why-not", { query: recordedQueries[0], expected, config });
      expect(answer.status, answer.body).toBe(200);
      return JSON.parse(answer.body) as {
        found: boolean;
        attempts: Array<{
          outcome: { kind: string; evidenceKey?: string; rank?: number; score?: number; baseScore?: number; returnN?: number };
        }>;
      };
    };
    const before = await base.traces.count();
    const included = await why("billing/refunds.md");
    expect(included.found).toBe(true);
    const outcome = included.attempts[0]?.outcome;
    expect(outcome).toMatchObject({ kind: "included", rank: 1 });
    const played = JSON.parse((await postJson(base, "/api/lookup", { query: recordedQueries[0] })).body) as {
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
    expect(await base.traces.count()).toBe(before);
    expect((await postJson(base, "/api/why-not", { query: "refund" })).status).toBe(400);
  });

  it("issue 13: POST /api/calibration gives each question's gate score, the threshold's found and refused rates, and the eval figures", async () => {
    const examples = JSON.parse(await readFile(join(exampleKnowledgeBase, "questions.json"), "utf8")) as Array<{
      question: string;
      relevant: string[];
    }>;
    const lines = [
      ...examples
        .slice(0, 8)
        .map((example, index) => JSON.stringify({ id: `q${index}`, query: example.question, relevant: example.relevant })),
      JSON.stringify({ id: "out1", query: "What is the boiling point of ethanol?", relevant: [] }),
      JSON.stringify({ id: "out2", query: "Who painted the ceiling of the Sistine Chapel?", relevant: [] }),
    ];
    const answer = await postJson(base, "/api/calibration", { questions: lines.join("\n") });
    expect(answer.status, answer.body).toBe(200);
    const view = JSON.parse(answer.body) as {
      referenceThreshold: number;
      samples: Array<{ id: string; answerable: boolean; gateScore: number | null }>;
      tradeOff: unknown[];
      atThreshold: { answerableFound: number; answerableAsked: number; outOfScopeRefused: number; outOfScopeAsked: number };
      evaluation: {
        scores: { ndcg10: number };
        answerable: { asked: number; found: number };
        outOfScope: { asked: number; refused: number };
      };
    };
    expect(view.referenceThreshold).toBe(base.knowledgeBase.retriever.config.referenceThreshold);
    expect(view.samples).toHaveLength(10);
    expect(view.tradeOff).toHaveLength(99);
    const found = view.samples.filter(
      (sample) => sample.answerable && sample.gateScore !== null && sample.gateScore >= view.referenceThreshold,
    );
    expect(view.atThreshold).toMatchObject({ answerableAsked: 8, outOfScopeAsked: 2, answerableFound: found.length });
    expect(view.evaluation.answerable.asked).toBe(8);
    expect(view.evaluation.scores.ndcg10).toBeGreaterThan(0.5);
    const bad = await postJson(base, "/api/calibration", { questions: '{"id": 1}' });
    expect([bad.status, JSON.parse(bad.body).error.message]).toEqual([400, expect.stringContaining("line 1")]);
    expect(JSON.parse(bad.body).error.message).not.toContain("lookup-knowledge-inspector-");
  });

  it("issue 13: security: another Host or Origin is refused, POST bodies must be JSON and small, the page carries a CSP and no external URL", async () => {
    const url = new URL("/api/info", base.server.url).href;
    const rebinding = await call(url, { headers: { host: "attacker.example:80" } });
    expect([rebinding.status, JSON.parse(rebinding.body).error.code]).toEqual([421, "host_not_allowed"]);
    const localhost = await call(url, { headers: { host: `localhost:${new URL(base.server.url).port}` } });
    expect(localhost.status).toBe(200);
    const crossSite = await call(url, { headers: { origin: "http://attacker.example" } });
    expect([crossSite.status, JSON.parse(crossSite.body).error.code]).toEqual([403, "origin_not_allowed"]);
    const lookup = new URL("/api/lookup", base.server.url).href;
    const form = await call(lookup, { method: "POST", headers: { "content-type": "text/plain" }, body: '{"query":"refund"}' });
    expect(form.status).toBe(415);
    const huge = await call(lookup, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "x".repeat(3 * 1024 * 1024) }),
    });
    expect([huge.status, JSON.parse(huge.body).error.code]).toEqual([413, "body_too_large"]);
    // Without a Content-Length (chunked), the limit is found while reading, and still answered.
    const chunked = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        lookup,
        { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      for (let index = 0; index < 33; index++) request.write("x".repeat(64 * 1024));
      request.end();
    });
    expect(chunked).toBe(413);
    expect((await call(new URL("/api/nothing", base.server.url).href)).status).toBe(404);
    const page = await call(base.server.url);
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    // The icon is an empty data: URL, so the browser asks for no favicon either.
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? "").filter((asset) => asset !== "data:,");
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/assets\//);
      const file = await call(new URL(asset, base.server.url).href);
      expect(file.status).toBe(200);
      // XML namespace names are identifiers, never fetched; any other URL would be a request off this machine.
      const external = [...file.body.matchAll(/https?:\/\/[^\s"'`)]+/g)]
        .map((match) => match[0])
        .filter((found) => !found.startsWith("http://www.w3.org/"));
      expect(external).toEqual([]);
    }
    // Raw paths, sent as written (a URL object would resolve the dots before sending).
    const raw = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const target = new URL(base.server.url);
        const sent = httpRequest({ host: target.hostname, port: target.port, path, method: "GET" }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        sent.on("error", reject);
        sent.end();
      });
    for (const path of [
      "/../../package.json",
      "/assets/../../../package.json",
      "/..%2f..%2fpackage.json",
      "/assets/..%2f..%2f..%2fpackage.json",
      "/%2e%2e/%2e%2e/package.json",
    ]) {
      expect({ path, status: await raw(path) }).toEqual({ path, status: 404 });
    }
    expect(await raw("/assets/%E0%A4%A.js")).toBe(400);
  });
});

describe("issue 13: with traces.store-query hash", () => {
  let base: InspectedBase;
  beforeAll(async () => {
    base = await inspectExampleBase({ queryStorage: "hash" });
  }, 120_000);
  afterAll(async () => {
    await base?.close();
  });

  it("issue 13: the inspector never shows a query's text when it is stored as a hash", async () => {
    expect(await getJson<{ queryStorage: string }>(base, "/api/info")).toMatchObject({ queryStorage: "hash" });
    const { records } = await getJson<{ records: Row[] }>(base, "/api/traces");
    expect(records).toHaveLength(4);
    for (const row of records) {
      expect(row.queryIsHash).toBe(true);
      const whole = JSON.stringify(await getJson(base, `/api/traces/${row.id}`));
      for (const query of recordedQueries) expect(whole).not.toContain(query);
    }
    const exact = await getJson<{ records: Row[] }>(base, `/api/traces?query=${encodeURIComponent(recordedQueries[0] ?? "")}`);
    expect(exact.records).toHaveLength(1);
    expect(exact.records[0]?.query).not.toContain("refund");
  });

  it("issue 13: a record stored as a hash is shown as one even when the setting is now text", async () => {
    const textServer = await serveInspector({
      knowledgeBase: base.knowledgeBase,
      traces: base.traces,
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
