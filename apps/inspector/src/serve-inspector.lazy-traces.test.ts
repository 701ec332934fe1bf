import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tracesDirectory } from "@lookup-knowledge/agent-tool/local";
import { ingestIntoStore, openKnowledgeBase, type KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { createDurableTraceStore, createTraceSpool, type DurableTraceStore } from "@lookup-knowledge/trace-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveInspector } from "./serve-inspector.js";
import { exampleKnowledgeBase, recordedQueries } from "./test/inspected-base.js";
import { call, getJson, type Row } from "./test/inspector-http.js";

describe("issue 13: traces opened on demand, for a server started before the first lookup", () => {
  let folder: string;
  let dataDirectory: string;
  let knowledgeBase: KnowledgeBase;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-inspector-lazy-"));
    dataDirectory = join(folder, "data");
    await ingestIntoStore({ root: exampleKnowledgeBase, dataDirectory });
    knowledgeBase = await openKnowledgeBase({ dataDirectory });
  }, 120_000);
  afterAll(async () => {
    await knowledgeBase?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("issue 13: with no trace store yet the API says so, and a lookup recorded later is listed without a restart; close closes the store", async () => {
    let calls = 0;
    let closes = 0;
    const opened: DurableTraceStore[] = [];
    const server = await serveInspector({
      knowledgeBase,
      // What `lookup-knowledge inspect` does: no trace folder yet means no store yet.
      traces: async () => {
        calls++;
        if (!existsSync(tracesDirectory(dataDirectory))) return undefined;
        const store = createDurableTraceStore({ directory: tracesDirectory(dataDirectory), flushIntervalMs: 0 });
        opened.push(store);
        return {
          list: (query) => store.list(query),
          get: (id) => store.get(id),
          close: async () => {
            closes++;
            await store.close();
          },
        };
      },
      port: 0,
    });
    try {
      expect(await getJson({ server }, "/api/info")).toMatchObject({ traces: false });
      const missing = await call(new URL("/api/traces", server.url).href);
      expect([missing.status, JSON.parse(missing.body).error.code]).toEqual([404, "traces_unavailable"]);
      expect([calls, opened.length]).toEqual([2, 0]);

      // A lookup recorded into the data folder's spool, as `lookup-knowledge query` records it.
      const spool = createTraceSpool({ directory: tracesDirectory(dataDirectory) });
      const recording = await openKnowledgeBase({ dataDirectory, traceStore: spool });
      await recording.retriever.lookup(recordedQueries[0] ?? "");
      await recording.retriever.flushTraces();
      await recording.close();
      await spool.close();

      // Requests that overlap share one opening.
      const [info, listed] = await Promise.all([
        getJson<{ traces: boolean }>({ server }, "/api/info"),
        getJson<{ records: Row[] }>({ server }, "/api/traces"),
      ]);
      expect(info.traces).toBe(true);
      expect(listed.records.map((row) => row.query)).toEqual([recordedQueries[0]]);
      const one = await getJson<{ query: string }>({ server }, `/api/traces/${listed.records[0]?.id}`);
      expect(one.query).toBe(recordedQueries[0]);
      expect(opened).toHaveLength(1);
      const callsOnceOpen = calls;
      await getJson({ server }, "/api/traces");
      expect([calls, closes]).toEqual([callsOnceOpen, 0]);
    } finally {
      await server.close();
    }
    // The server opened the store, so it closed it, once.
    expect(closes).toBe(1);
  });

  it("issue 13: an opener that throws answers that request with the error, and the next request tries again", async () => {
    let fail = true;
    const store = createDurableTraceStore({ directory: join(folder, "other-traces"), flushIntervalMs: 0 });
    const server = await serveInspector({
      knowledgeBase,
      traces: async () => {
        if (fail) throw new Error("the trace database is starting");
        return store;
      },
      port: 0,
    });
    try {
      const failed = await call(new URL("/api/traces", server.url).href);
      expect([failed.status, JSON.parse(failed.body).error.message]).toEqual([500, "the trace database is starting"]);
      fail = false;
      expect(await getJson<{ records: Row[] }>({ server }, "/api/traces")).toMatchObject({ records: [] });
    } finally {
      await server.close();
    }
  });
});
