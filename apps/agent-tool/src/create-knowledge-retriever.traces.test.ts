import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LookupKnowledgeError } from "@lookup-knowledge/core";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import { createInMemorySearchPort } from "@lookup-knowledge/search-port/testing";
import {
  createDurableTraceStore,
  createTraceSpool,
  openTraceDatabase,
  stopTraceServer,
  type TraceStore,
} from "@lookup-knowledge/trace-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKnowledgeRetriever } from "./create-knowledge-retriever.js";

const searchPort = createInMemorySearchPort([
  {
    id: "refunds#chunk-0",
    content: "Billing Admins can refund a paid invoice within thirty days.",
    metadata: { docId: "refunds", chunkIndex: 0, source: "billing/refunds.md", category: "billing" },
  },
]);
const l0Index = createL0Index([{ id: "refunds", source: "billing/refunds.md", title: "Refunds", keywords: ["refund"], domain: "billing" }]);

describe("the retriever with the durable trace store (embedded PGlite)", () => {
  let root: string;
  let databaseDirectory: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "retriever-traces-"));
    databaseDirectory = join(root, "database");
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("R29: the database unavailable during 1,000 lookups: none fails, and all 1,000 records are there afterwards, once", async () => {
    const errors: LookupKnowledgeError[] = [];
    const traceStore = createDurableTraceStore({
      directory: join(root, "traces"),
      databaseDirectory,
      flushIntervalMs: 5,
      lockWaitMs: 10,
      idleCloseMs: 0,
      onError: (error) => errors.push(error),
    });
    const retriever = createKnowledgeRetriever({ searchPort, l0Index, traceStore, onTraceError: (error) => errors.push(error) });
    // The embedded database cannot be opened (its folder is moved away and a file stands in
    // its place): no trace server can serve it.
    await (await openTraceDatabase({ directory: databaseDirectory })).close();
    await stopTraceServer(databaseDirectory);
    const aside = `${databaseDirectory}-aside`;
    await rename(databaseDirectory, aside);
    await writeFile(databaseDirectory, "not a database");
    let failed = 0;
    try {
      for (let index = 0; index < 1000; index += 1) {
        const result = await retriever
          .lookup(index % 2 === 0 ? `How do I refund invoice ${index}?` : `Unrelated question ${index}`)
          .catch(() => undefined);
        if (result === undefined) failed += 1;
      }
      await retriever.flushTraces(); // the flush fails: reported, not thrown
      expect(errors.some((error) => error.code === "trace_database_unavailable")).toBe(true);
    } finally {
      await rm(databaseDirectory, { force: true });
      await rename(aside, databaseDirectory);
    }
    expect(failed).toBe(0);
    await retriever.close(); // flushes into the database, now that it is back
    const since = new Date(Date.now() - 3_600_000);
    const records = await traceStore.list({ since, limit: 5000 });
    expect(records).toHaveLength(1000);
    expect(new Set(records.map((record) => record.id)).size).toBe(1000);
    expect(records.filter((record) => record.found)).toHaveLength(500);
    await traceStore.close();
  });

  it("R29: close() calls the store's flush, and a flush that fails is reported, never thrown", async () => {
    const reported: LookupKnowledgeError[] = [];
    let flushes = 0;
    const traceStore: TraceStore = {
      record: async () => undefined,
      flush: async () => {
        flushes += 1;
        throw new Error("the database went away");
      },
    };
    const retriever = createKnowledgeRetriever({ searchPort, traceStore, onTraceError: (error) => reported.push(error) });
    await retriever.lookup("refund");
    await expect(retriever.close()).resolves.toBeUndefined();
    expect(flushes).toBe(1);
    expect(reported.map((error) => error.code)).toEqual(["trace_flush_failed"]);
    expect(reported[0]?.message).toMatch(/the database went away/);
  });

  it("R29: close() reports the records it could not write as lost, with their number (a spool that cannot be written)", async () => {
    const reported: LookupKnowledgeError[] = [];
    // A file where the trace folder's parent should be: the spool cannot make its folder.
    const inTheWay = join(root, "not-a-folder");
    await writeFile(inTheWay, "");
    const traceStore = createTraceSpool({ directory: join(inTheWay, "traces") });
    const retriever = createKnowledgeRetriever({ searchPort, l0Index, traceStore, onTraceError: (error) => reported.push(error) });
    for (const query of ["refund", "How do I refund an invoice?", "Unrelated question"]) await retriever.lookup(query);
    expect(reported.map((error) => error.code)).toEqual(["trace_record_failed"]);
    expect(reported[0]?.message).toMatch(/kept and retried/);
    await retriever.close();
    expect(reported.map((error) => error.code)).toEqual(["trace_record_failed", "trace_records_lost"]);
    expect(reported[1]?.message).toMatch(/^3 trace records could not be written and are lost/);
    expect(reported[1]?.retryable).toBe(false);
  });

  it("R29: close() reports nothing lost when every record was written", async () => {
    const reported: LookupKnowledgeError[] = [];
    const traceStore = createTraceSpool({ directory: join(root, "written") });
    const retriever = createKnowledgeRetriever({ searchPort, traceStore, onTraceError: (error) => reported.push(error) });
    await retriever.lookup("refund");
    await retriever.close();
    await traceStore.close();
    expect(reported).toEqual([]);
  });
});
