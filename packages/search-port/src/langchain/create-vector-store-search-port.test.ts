import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigurationError, InvalidFilterError } from "@lookup-knowledge/core";
import type { MetadataFilter } from "@lookup-knowledge/core";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { LibSQLVectorStore } from "@langchain/community/vectorstores/libsql";
import { createClient } from "@libsql/client";
import type { Client } from "@libsql/client";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { createVectorStoreSearchPort } from "./create-vector-store-search-port.js";
import { normalizeVectorStoreScore } from "./normalize-vector-store-score.js";
import { toLibsqlFilter } from "./to-libsql-filter.js";
import { memoryVectorStoreProfile, pineconeVectorStoreProfile, vectorStoreProfiles } from "./vector-store-profiles.js";

const embeddings = createOfflineEmbeddings();
const dimension = (await embeddings.embedQuery("dimension probe")).length;

const records: KnowledgeRecord[] = [
  {
    id: "refunds#chunk-0",
    content: "Refunds are paid back to the original card within five business days.",
    metadata: { docId: "refunds", chunkIndex: 0, title: "Refund policy", category: "billing", tenant: "acme" },
  },
  {
    id: "shipping#chunk-0",
    content: "Parcels leave the Rotterdam warehouse every weekday.",
    metadata: { docId: "shipping", chunkIndex: 0, title: "Shipping", category: "logistics", tenant: "globex" },
  },
];

let folder = "";
const clients: Client[] = [];
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-libsql-unit-"));
});
afterAll(async () => {
  for (const client of clients) client.close();
  await rm(folder, { recursive: true, force: true });
});

async function libsqlStore(): Promise<LibSQLVectorStore> {
  const db = createClient({ url: `file:${join(folder, `unit-${clients.length}.db`)}` });
  clients.push(db);
  await db.execute(`CREATE TABLE vectors (content TEXT, metadata TEXT, embedding F32_BLOB(${dimension}))`);
  await db.execute("CREATE INDEX idx_vectors_embedding ON vectors (libsql_vector_idx(embedding))");
  return new LibSQLVectorStore(embeddings, { db });
}

/** A MemoryVectorStore that reports another type and records the k it was asked for. */
class CustomStore extends MemoryVectorStore {
  readonly asked: number[] = [];
  override _vectorstoreType(): string {
    return "custom";
  }
  override async similaritySearchWithScore(query: string, k?: number, filter?: this["FilterType"]) {
    this.asked.push(k ?? -1);
    return super.similaritySearchWithScore(query, k, filter);
  }
}

describe("createVectorStoreSearchPort", () => {
  it("R13: normalises each store's score to the same cosine: MemoryVectorStore (similarity) and LibSQL (cosine distance) agree", async () => {
    const memory = createVectorStoreSearchPort({ vectorStore: new MemoryVectorStore(embeddings) });
    const libsql = createVectorStoreSearchPort({ vectorStore: await libsqlStore() });
    await memory.upsert(records);
    await libsql.upsert(records);
    for (const query of ["How are refunds paid?", "When do parcels leave?"]) {
      const fromMemory = await memory.search({ query, topK: 2 });
      const fromLibsql = await libsql.search({ query, topK: 2 });
      expect(fromLibsql.map((hit) => hit.id)).toEqual(fromMemory.map((hit) => hit.id));
      fromMemory.forEach((hit, position) => {
        expect(fromLibsql[position]?.score).toBeCloseTo(hit.score ?? -1, 5);
      });
    }
  });

  it("R13: keeps the record id out of the returned metadata and returns it as the hit id, on a store with row ids", async () => {
    const port = createVectorStoreSearchPort({ vectorStore: await libsqlStore() });
    await port.upsert(records);
    const [hit] = await port.search({ query: "refunds", topK: 1, filter: { category: "billing" } });
    expect(hit).toMatchObject({ id: "refunds#chunk-0", content: records[0]?.content, metadata: records[0]?.metadata });
    expect(hit?.metadata).not.toHaveProperty("recordId");
  });

  it("R13: refuses a store type without a built-in profile, naming `profile`, and uses a given profile", async () => {
    const store = new CustomStore(embeddings);
    expect(() => createVectorStoreSearchPort({ vectorStore: store })).toThrow(ConfigurationError);
    try {
      createVectorStoreSearchPort({ vectorStore: store });
    } catch (error) {
      expect(error).toMatchObject({ key: "profile", value: "custom" });
    }
    const port = createVectorStoreSearchPort({
      vectorStore: store,
      profile: { ...memoryVectorStoreProfile, name: "custom", candidates: (_store, topK, filtered) => (filtered ? topK * 5 : topK) },
    });
    await port.upsert(records);
    await port.search({ query: "refunds", topK: 1 });
    await port.search({ query: "refunds", topK: 1, filter: { tenant: "acme" } });
    expect(store.asked).toEqual([1, 5]);
  });

  it("R13: never drops a filter: one the store cannot express is refused with unsupported_filter", async () => {
    const port = createVectorStoreSearchPort({ vectorStore: await libsqlStore() });
    await expect(port.search({ query: "x", topK: 1, filter: { 'say "hi"': "x" } })).rejects.toMatchObject({
      code: "unsupported_filter",
      store: "libsql",
    });
  });

  it("R13: a document the filter excludes is never passed on, even when the translation loses the filter", async () => {
    const port = createVectorStoreSearchPort({
      vectorStore: new MemoryVectorStore(embeddings),
      profile: { ...memoryVectorStoreProfile, translateFilter: () => () => true },
    });
    await port.upsert(records);
    await expect(port.search({ query: "parcels", topK: 2, filter: { tenant: "acme" } })).rejects.toMatchObject({
      code: "filter_not_honoured",
    });
  });

  it("R13: validates the filter first; a filter nothing passes, and topK 0, ask the store nothing", async () => {
    const store = new CustomStore(embeddings);
    const port = createVectorStoreSearchPort({ vectorStore: store, profile: memoryVectorStoreProfile });
    await expect(port.search({ query: "x", topK: 1, filter: { a: { $regex: "b" } } as unknown as MetadataFilter })).rejects.toSatisfy(
      InvalidFilterError.isInstance,
    );
    const never = createVectorStoreSearchPort({ vectorStore: store, profile: { ...pineconeVectorStoreProfile, score: "similarity" } });
    expect(await never.search({ query: "x", topK: 3, filter: { tenant: { $in: [] } } })).toEqual([]);
    expect(await port.search({ query: "x", topK: 0 })).toEqual([]);
    expect(store.asked).toEqual([]);
  });

  it("R13: an upsert replaces by id on stores that append (MemoryVectorStore, LibSQL), keeping the last of repeated ids", async () => {
    for (const vectorStore of [new MemoryVectorStore(embeddings), await libsqlStore()]) {
      const port = createVectorStoreSearchPort({ vectorStore });
      await port.upsert(records);
      const changed = { ...(records[0] as KnowledgeRecord), content: "Refunds now take ten days." };
      await port.upsert([{ ...changed, content: "an earlier copy" }, changed]);
      const hits = await port.search({ query: "refunds", topK: 10 });
      expect(hits.map((hit) => hit.id).sort()).toEqual(["refunds#chunk-0", "shipping#chunk-0"]);
      expect(hits.find((hit) => hit.id === "refunds#chunk-0")?.content).toBe("Refunds now take ten days.");
    }
  });

  it("R13: deleteDocuments also finds chunks that carry doc_id instead of docId", async () => {
    for (const vectorStore of [new MemoryVectorStore(embeddings), await libsqlStore()]) {
      const port = createVectorStoreSearchPort({ vectorStore });
      await port.upsert([...records, { id: "legacy#chunk-0", content: "Old text.", metadata: { doc_id: "legacy", chunk_index: 0 } }]);
      expect(await port.deleteDocuments(["legacy", "refunds"])).toBe(2);
      expect((await port.search({ query: "text", topK: 10 })).map((hit) => hit.id)).toEqual(["shipping#chunk-0"]);
    }
  });

  it("R13: an aborted signal rejects with its reason, for searches and writes", async () => {
    const port = createVectorStoreSearchPort({ vectorStore: new MemoryVectorStore(embeddings) });
    const reason = new Error("stop");
    await expect(port.search({ query: "x", topK: 1, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await expect(port.upsert(records, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await expect(port.deleteDocuments(["refunds"], { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it("refuses bad options and records with clear errors", async () => {
    expect(() => createVectorStoreSearchPort({ vectorStore: {} as never })).toThrow(/vectorStore/);
    expect(() => createVectorStoreSearchPort({ vectorStore: new MemoryVectorStore(embeddings), idKey: "" })).toThrow(/idKey/);
    expect(() => createVectorStoreSearchPort({ vectorStore: new MemoryVectorStore(embeddings), batchSize: 0 })).toThrow(/batchSize/);
    const port = createVectorStoreSearchPort({ vectorStore: new MemoryVectorStore(embeddings) });
    await expect(port.upsert([{ id: "", content: "x", metadata: {} }])).rejects.toMatchObject({ code: "invalid_record" });
    await expect(port.upsert([{ id: "a", content: "x", metadata: { recordId: "b" } }])).rejects.toMatchObject({ code: "invalid_record" });
  });

  it("lists the built-in profiles by _vectorstoreType()", () => {
    expect(Object.keys(vectorStoreProfiles).sort()).toEqual(["libsql", "memory", "pinecone"]);
  });
});

describe("toLibsqlFilter", () => {
  it("R13: binds every value and field path as an argument, so values cannot change the SQL", () => {
    const filter = toLibsqlFilter({ title: "x'); DROP TABLE vectors; --", year: { $gte: 2020 } });
    expect(filter.sql).not.toContain("DROP");
    expect(Object.values(filter.args)).toEqual(['$."title"', "x'); DROP TABLE vectors; --", '$."year"', 2020]);
    expect(filter.sql).toContain("json_type(vectors.metadata, :lkf0)");
  });

  it("R13: refuses a table name that is not a plain identifier", () => {
    expect(() => toLibsqlFilter({ a: 1 }, "vectors; DROP")).toThrow(/plain identifier/);
  });
});

describe("normalizeVectorStoreScore", () => {
  it("R9: maps each kind of score to the cosine in 0..1", () => {
    expect(normalizeVectorStoreScore(0.7, "similarity")).toBeCloseTo(0.7, 12);
    expect(normalizeVectorStoreScore(0.3, "cosine-distance")).toBeCloseTo(0.7, 12);
    expect(normalizeVectorStoreScore(Math.sqrt(0.6), "euclidean-distance")).toBeCloseTo(0.7, 12);
    expect(normalizeVectorStoreScore(0.6, "squared-euclidean-distance")).toBeCloseTo(0.7, 12);
    expect(normalizeVectorStoreScore(-0.2, "similarity")).toBe(0);
    expect(normalizeVectorStoreScore(1.8, "cosine-distance")).toBe(0);
    expect(normalizeVectorStoreScore(Number.NaN, "similarity")).toBe(0);
  });
});
