import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigurationError, LookupKnowledgeError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { InvalidWriteError } from "../invalid-write-error.js";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { openLocalSearchPort } from "./open-local-search-port.js";
import { hashEmbeddings, records, useIndexFolder, open, build, ids } from "./test/local-port-test-fixtures.js";

useIndexFolder();

describe("openLocalSearchPort: writes", () => {
  it("starts empty: a fresh writer finds nothing, and its empty commit can be opened by a reader", async () => {
    const writer = await open({ mode: "write" });
    expect(await writer.search({ query: "refund", topK: 5 })).toEqual([]);
    expect(writer.stats()).toEqual({ documents: 0, chunks: 0, bytesOnDisk: 0, segments: 0 });
    await writer.commit();
    const reader = await open();
    expect(await reader.search({ query: "refund", topK: 5 })).toEqual([]);
    expect(reader.stats()).toMatchObject({ documents: 0, chunks: 0 });
    expect(reader.stats().lastCommit).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("replaces a record upserted again with the same id", async () => {
    const writer = await build();
    await writer.upsert([
      { id: "shipping#chunk-0", content: "Parcels now leave from the Antwerp depot.", metadata: { docId: "shipping", chunkIndex: 0 } },
    ]);
    expect(await writer.search({ query: "Rotterdam", topK: 5 })).toEqual([]);
    const [hit] = await writer.search({ query: "Antwerp depot", topK: 5 });
    expect(hit).toMatchObject({ id: "shipping#chunk-0", metadata: { docId: "shipping", chunkIndex: 0 } });
    expect(writer.stats().chunks).toBe(records.length);
    await writer.commit();
    const reader = await open();
    expect(ids(await reader.search({ query: "Antwerp depot", topK: 5 }))).toEqual(["shipping#chunk-0"]);
    expect(await reader.search({ query: "Rotterdam", topK: 5 })).toEqual([]);
  });

  it("keeps the last of several records with one id in a batch", async () => {
    const writer = await open({ mode: "write" });
    await writer.upsert([
      { id: "x", content: "first version", metadata: {} },
      { id: "x", content: "second version", metadata: {} },
    ]);
    expect((await writer.search({ query: "version", topK: 5 })).map((hit) => hit.content)).toEqual(["second version"]);
  });

  it("deletes every chunk of the given documents (docId or doc_id) and says how many went", async () => {
    const writer = await build();
    expect(await writer.deleteDocuments(["refunds", "shipping", "unknown"])).toBe(3);
    expect(await writer.deleteDocuments(["refunds"])).toBe(0);
    expect(await writer.search({ query: "refund order", topK: 5 })).toEqual([]);
    expect(await writer.search({ query: "warehouse", topK: 5 })).toEqual([]);
    expect(writer.stats()).toMatchObject({ chunks: records.length - 3, documents: 3 });
    await writer.upsert([{ id: "new#chunk-0", content: "a refund appendix", metadata: { docId: "new" } }]);
    expect(await writer.deleteDocuments(["new"])).toBe(1);
    await writer.commit();
    const reader = await open();
    expect(reader.stats()).toMatchObject({ chunks: records.length - 3, documents: 3 });
    expect(await reader.search({ query: "refund", topK: 5 })).toEqual([]);
  });

  it("ends in the same index after many upserts, deletes and commits as a fresh build of the result", async () => {
    const writer = await open({ mode: "write", embeddings: hashEmbeddings() });
    const final = new Map<string, KnowledgeRecord>();
    const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"];
    let state = 42;
    const random = (n: number) => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return state % n;
    };
    for (let round = 0; round < 8; round += 1) {
      const batch: KnowledgeRecord[] = [];
      for (let index = 0; index < 15; index += 1) {
        const doc = `doc${random(12)}`;
        const record = {
          id: `${doc}#chunk-${random(3)}`,
          content: Array.from({ length: 3 + random(6) }, () => words[random(words.length)]).join(" "),
          metadata: { docId: doc, round },
        };
        batch.push(record);
        final.set(record.id, record);
      }
      await writer.upsert(batch);
      const gone = [`doc${random(12)}`];
      await writer.deleteDocuments(gone);
      for (const [id, record] of final) if (record.metadata["docId"] === gone[0]) final.delete(id);
      if (round % 3 === 0) await writer.search({ query: "alpha", topK: 1 });
      if (round % 2 === 1) await writer.commit();
    }
    await writer.commit();
    await writer.close();
    const incremental = await open({ embeddings: hashEmbeddings(), minScore: 0 });
    const freshDirectory = mkdtempSync(join(tmpdir(), "local-port-fresh-"));
    try {
      const fresh = await openLocalSearchPort({ directory: freshDirectory, mode: "write", embeddings: hashEmbeddings(), minScore: 0 });
      await fresh.upsert([...final.values()]);
      await fresh.commit();
      for (const query of ["alpha beta", "gamma", "theta kappa iota", "zeta zeta eta"]) {
        const left = await incremental.search({ query, topK: 50 });
        const right = await fresh.search({ query, topK: 50 });
        expect(left.map((hit) => [hit.id, hit.content, hit.metadata])).toEqual(right.map((hit) => [hit.id, hit.content, hit.metadata]));
        left.forEach((hit, index) => {
          expect(hit.score).toBeCloseTo(right[index]?.score ?? -1, 6);
        });
      }
      expect(incremental.stats()).toMatchObject({ chunks: final.size, documents: fresh.stats().documents });
      await fresh.close();
    } finally {
      rmSync(freshDirectory, { recursive: true, force: true });
    }
  });

  it("refuses writes on a reader", async () => {
    await build();
    const reader = await open();
    await expect(reader.upsert(records)).rejects.toSatisfy((error: unknown) => ConfigurationError.isInstance(error));
    await expect(reader.deleteDocuments(["refunds"])).rejects.toThrow(/mode "write"/);
    await expect(reader.commit()).rejects.toThrow(/mode "write"/);
  });

  it("refuses malformed records with a message naming the record", async () => {
    const writer = await open({ mode: "write" });
    await expect(writer.upsert([{ id: "", content: "x", metadata: {} }])).rejects.toThrow(/record 0 needs a non-empty string id/);
    await expect(writer.upsert([{ id: "a", content: 3, metadata: {} } as unknown as KnowledgeRecord])).rejects.toThrow(
      /\(a\) needs string content/,
    );
  });

  it("refuses bad write arguments with an InvalidWriteError, never a plain TypeError", async () => {
    const writer = await open({ mode: "write" });
    await expect(writer.upsert([null as unknown as KnowledgeRecord])).rejects.toSatisfy(
      (error: unknown) => InvalidWriteError.isInstance(error) && error.code === "invalid_record" && !(error instanceof TypeError),
    );
    await expect(writer.upsert("a" as unknown as KnowledgeRecord[])).rejects.toMatchObject({
      code: "invalid_argument",
      operation: "upsert",
    });
    await expect(writer.deleteDocuments("a" as unknown as string[])).rejects.toMatchObject({
      code: "invalid_argument",
      operation: "deleteDocuments",
    });
  });

  it("does not apply an upsert whose signal aborts while embedding", async () => {
    const writer = await open({ mode: "write", embeddings: hashEmbeddings({ delayMs: 50 }) });
    const controller = new AbortController();
    const pending = writer.upsert(records, { signal: controller.signal });
    controller.abort(new Error("cancelled"));
    await expect(pending).rejects.toThrow("cancelled");
    expect(writer.stats().chunks).toBe(0);
  });

  it("discards uncommitted changes on close", async () => {
    const writer = await build(records.slice(0, 2));
    await writer.upsert(records.slice(2));
    await writer.close();
    const reader = await open();
    expect(reader.stats().chunks).toBe(2);
    await expect(writer.search({ query: "refund", topK: 1 })).rejects.toSatisfy(
      (error: unknown) => LookupKnowledgeError.isInstance(error) && error.code === "index_closed",
    );
  });

  it("lets a commit queued before close finish, then closes; new calls are refused while it closes", async () => {
    const writer = await open({ mode: "write", embeddings: hashEmbeddings({ delayMs: 30 }) });
    const upserted = writer.upsert(records);
    const committed = writer.commit();
    const closing = writer.close();
    const isClosed = (error: unknown) => LookupKnowledgeError.isInstance(error) && error.code === "index_closed";
    await expect(writer.upsert(records)).rejects.toSatisfy(isClosed);
    await expect(writer.commit()).rejects.toSatisfy(isClosed);
    await expect(writer.search({ query: "refund", topK: 1 })).rejects.toSatisfy(isClosed);
    await upserted;
    await committed;
    await closing;
    await writer.close();
    const reader = await open();
    expect(reader.stats().chunks).toBe(records.length);
    await expect(writer.search({ query: "refund", topK: 1 })).rejects.toThrow(/was closed/);
  });

  it("lets a search that is embedding its query when close is called finish", async () => {
    await (await build(records, { embeddings: hashEmbeddings() })).close();
    const reader = await open({ embeddings: hashEmbeddings({ queryDelayMs: 30 }) });
    const searching = reader.search({ query: "refund card", topK: 1 });
    await reader.close();
    expect(ids(await searching)).toEqual(["refunds#chunk-0"]);
  });
});
