import { join } from "node:path";
import { InvalidFilterError } from "@lookup-knowledge/core";
import type { MetadataFilter } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { matchesFilter } from "../matches-filter.js";
import { EmbedderMismatchError } from "./errors/embedder-mismatch-error.js";
import { openLocalSearchPort } from "./open-local-search-port.js";
import { hashEmbeddings, records, directory, useIndexFolder, open, build, ids } from "./test/local-port-test-fixtures.js";

useIndexFolder();

describe("openLocalSearchPort: search", () => {
  it("ranks the record that matches the query best first", async () => {
    const port = await build();
    const hits = await port.search({ query: "How are refunds paid back to my card?", topK: 3 });
    expect(hits[0]?.id).toBe("refunds#chunk-0");
    expect(ids(await port.search({ query: "reset forgotten password", topK: 1 }))).toEqual(["passwords#chunk-0"]);
    expect(ids(await port.search({ query: "warehouse parcels", topK: 1 }))).toEqual(["shipping#chunk-0"]);
  });

  it("returns content, a fresh copy of the metadata and the id", async () => {
    const port = await build();
    const [hit] = await port.search({ query: "Rotterdam warehouse", topK: 1 });
    expect(hit).toMatchObject({ id: "shipping#chunk-0", content: records[2]?.content, metadata: records[2]?.metadata });
    (hit?.metadata as Record<string, unknown>)["category"] = "changed";
    const [again] = await port.search({ query: "Rotterdam warehouse", topK: 1 });
    expect(again?.metadata["category"]).toBe("logistics");
  });

  it("gives scores in 0..1, best first, ties broken by id", async () => {
    const port = await build([
      { id: "b", content: "refund window", metadata: {} },
      { id: "a", content: "refund window", metadata: {} },
      { id: "c", content: "refund window and many other unrelated words in a longer text", metadata: {} },
      { id: "d", content: "shipping times", metadata: {} },
    ]);
    const hits = await port.search({ query: "refund window", topK: 10 });
    expect(ids(hits)).toEqual(["a", "b", "c"]);
    const scores = hits.map((hit) => hit.score ?? -1);
    for (const score of scores) {
      expect(score).toBeGreaterThan(0);
      expect(score).toBeLessThanOrEqual(1);
    }
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
    expect(scores[0]).toBe(scores[1]);
  });

  it("returns at most topK hits (0, fractions and NaN included)", async () => {
    const port = await build(records, { minScore: 0 });
    expect(await port.search({ query: "refund order card", topK: 1 })).toHaveLength(1);
    expect(await port.search({ query: "refund order card", topK: 2.9 })).toHaveLength(2);
    expect(await port.search({ query: "refund order card", topK: 0 })).toEqual([]);
    expect(await port.search({ query: "refund order card", topK: Number.NaN })).toEqual([]);
    expect((await port.search({ query: "refund", topK: 100 })).length).toBe(2);
  });

  it("returns nothing for a query of stop words only, or with no shared term", async () => {
    const port = await build();
    expect(await port.search({ query: "what is the", topK: 5 })).toEqual([]);
    expect(await port.search({ query: "zebra", topK: 5 })).toEqual([]);
  });

  it("finds Chinese text with a Chinese query, and mixed text", async () => {
    const port = await build();
    expect(ids(await port.search({ query: "限流插件怎么配置", topK: 1 }))).toEqual(["zh#chunk-0"]);
    expect(ids(await port.search({ query: "API 请求数量", topK: 1 }))).toEqual(["zh#chunk-0"]);
  });

  it("rejects at once when the signal is already aborted, and promptly when it aborts while embedding", async () => {
    const embeddings = hashEmbeddings({ queryDelayMs: 1_000 });
    const port = await build(records.slice(0, 2), { embeddings });
    const reason = new Error("stop");
    await expect(port.search({ query: "refund", topK: 3, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    const controller = new AbortController();
    const started = Date.now();
    const pending = port.search({ query: "refund", topK: 3, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("refuses an invalid filter with InvalidFilterError", async () => {
    const port = await build();
    await expect(
      port.search({ query: "refund", topK: 3, filter: { year: { $regex: "x" } } as unknown as MetadataFilter }),
    ).rejects.toSatisfy((error: unknown) => InvalidFilterError.isInstance(error));
  });
});

describe("openLocalSearchPort: metadata filters", () => {
  const many: KnowledgeRecord[] = Array.from({ length: 40 }, (_, index) => ({
    id: `doc-${String(index).padStart(2, "0")}#chunk-0`,
    content: `widget manual part ${index} ${index % 3 === 0 ? "gears" : "springs"}`,
    metadata: {
      docId: `doc-${index}`,
      chunkIndex: 0,
      category: ["billing", "api", "logistics", "accounts"][index % 4],
      year: 2015 + (index % 10),
      ...(index % 5 === 0 ? {} : { tenant: index % 2 === 0 ? "acme" : "globex" }),
      tags: index % 3 === 0 ? ["red", "blue"] : ["green"],
      public: index % 2 === 0,
      score: index % 7 === 0 ? null : index,
      code: index % 6 === 0 ? "1" : 1,
    },
  }));
  const filters: MetadataFilter[] = [
    { category: "api" },
    { category: { $eq: "billing" } },
    { category: { $ne: "billing" } },
    { year: { $gt: 2020 } },
    { year: { $gte: 2020, $lt: 2023 } },
    { year: { $lte: 2016 } },
    { tenant: { $in: ["acme", "initech"] } },
    { tenant: { $nin: ["acme"] } },
    { tenant: { $exists: false } },
    { score: { $exists: true } },
    { tags: "red" },
    { tags: { $ne: "red" } },
    { tags: { $in: ["blue", "green"] } },
    { public: true },
    { code: 1 },
    { code: "1" },
    { $or: [{ category: "api" }, { year: { $gte: 2023 } }] },
    { $and: [{ public: false }, { tenant: "globex" }] },
    { category: "api", $or: [{ tags: "red" }, { tenant: { $exists: false } }] },
    { category: "nonexistent" },
  ];

  it.each(filters.map((filter) => [JSON.stringify(filter), filter] as const))("agrees with matchesFilter for %s", async (_, filter) => {
    const port = await build(many, { minScore: 0 });
    const hits = await port.search({ query: "widget manual", topK: 100, filter });
    const expected = many.filter((record) => matchesFilter(record.metadata, filter)).map((record) => record.id);
    expect(ids(hits).sort()).toEqual(expected.sort());
    for (const hit of hits) expect(matchesFilter(hit.metadata, filter)).toBe(true);
  });

  it("fills topK from the records that pass a narrow filter", async () => {
    const port = await build(many, { minScore: 0 });
    const hits = await port.search({ query: "widget gears", topK: 3, filter: { year: 2015 } });
    expect(ids(hits)).toEqual(["doc-00#chunk-0", "doc-30#chunk-0", "doc-10#chunk-0"]);
  });
});

describe("openLocalSearchPort: embedders", () => {
  it("throws EmbedderMismatchError naming both embedders when a reader or writer brings another one", async () => {
    await (await build(records, { embeddings: hashEmbeddings({ id: "test/a", dimension: 32 }) })).close();
    for (const mode of ["read", "write"] as const) {
      const error = await openLocalSearchPort({ directory, mode, embeddings: hashEmbeddings({ id: "test/b", dimension: 16 }) }).catch(
        (caught: unknown) => caught,
      );
      expect(EmbedderMismatchError.isInstance(error)).toBe(true);
      expect((error as EmbedderMismatchError).code).toBe("embedder_mismatch");
      const message = (error as Error).message;
      expect(message).toContain(directory);
      expect(message).toContain('"test/a"');
      expect(message).toContain("32 dimensions");
      expect(message).toContain('"test/b"');
      expect(message).toContain("16 dimensions");
    }
    // A writer without embeddings would add records without vectors: refused too.
    await expect(openLocalSearchPort({ directory, mode: "write" })).rejects.toSatisfy((error: unknown) =>
      EmbedderMismatchError.isInstance(error),
    );
    // A reader without embeddings searches lexically.
    const reader = await open();
    expect(ids(await reader.search({ query: "refund card", topK: 1 }))).toEqual(["refunds#chunk-0"]);
  });

  it("lets a writer adopt another embedder when the index is empty", async () => {
    const first = await build([], { embeddings: hashEmbeddings({ id: "test/a" }) });
    await first.close();
    const writer = await build(records, { embeddings: hashEmbeddings({ id: "test/b", dimension: 8 }) });
    expect(writer.stats().embedder).toEqual({ id: "test/b", version: "1", dimension: 8 });
  });

  it("needs an identity for embeddings that have none", async () => {
    const { identity: _, ...anonymous } = hashEmbeddings();
    await expect(openLocalSearchPort({ directory, mode: "write", embeddings: anonymous })).rejects.toThrow(/embedder/);
    const writer = await open({ mode: "write", embeddings: anonymous, embedder: { id: "mine", version: "2", dimension: 32 } });
    expect(writer.stats().embedder).toEqual({ id: "mine", version: "2", dimension: 32 });
  });

  it("refuses vectors of the wrong size from the embedder", async () => {
    const embeddings = { ...hashEmbeddings(), embedder: undefined, identity: { id: "liar", version: "1", dimension: 10 } };
    const writer = await open({ mode: "write", embeddings });
    await expect(writer.upsert(records)).rejects.toThrow(/32 dimensions, not 10/);
  });

  it("embeds queries only when the dense weight is above 0", async () => {
    const embeddings = hashEmbeddings();
    await (await build(records, { embeddings })).close();
    const lexical = await open({ embeddings, denseWeight: 0 });
    embeddings.calls = 0;
    await lexical.search({ query: "refund", topK: 3 });
    expect(embeddings.calls).toBe(0);
    const hybrid = await open({ embeddings });
    await hybrid.search({ query: "refund", topK: 3 });
    expect(embeddings.calls).toBe(1);
  });

  it("lets dense similarity lift a record that shares words only through the embedding", async () => {
    const embeddings = hashEmbeddings();
    const writer = await build(
      [
        { id: "a", content: "throttle tenant traffic gateway", metadata: {} },
        { id: "b", content: "bake chocolate cake", metadata: {} },
      ],
      { embeddings, minScore: 0, denseWeight: 0.5 },
    );
    const hits = await writer.search({ query: "gateway throttle", topK: 2 });
    expect(ids(hits)[0]).toBe("a");
    for (const hit of hits) expect(hit.score).toBeLessThanOrEqual(1);
  });

  it("refuses bad options with ConfigurationError naming the option", async () => {
    await expect(openLocalSearchPort({ directory, denseWeight: 2 })).rejects.toThrow(/denseWeight=2/);
    await expect(openLocalSearchPort({ directory, minScore: -1 })).rejects.toThrow(/minScore=-1/);
    await expect(openLocalSearchPort({ directory, mode: "append" as "write" })).rejects.toThrow(/mode/);
    await expect(openLocalSearchPort({ directory: "" })).rejects.toThrow(/directory/);
  });
  it("opens a lexical-only index for a reader with embeddings: it searches lexically and never embeds the query", async () => {
    await (await build()).close();
    const embeddings = hashEmbeddings();
    const reader = await open({ embeddings });
    expect(ids(await reader.search({ query: "refund card", topK: 1 }))).toEqual(["refunds#chunk-0"]);
    expect(embeddings.calls).toBe(0);
    expect(reader.stats().embedder).toBeUndefined();
  });

  it("refuses a writer with embeddings on a non-empty lexical-only index, and lets it adopt an empty one", async () => {
    const lexical = join(directory, "lexical");
    await (await build(records, { directory: lexical })).close();
    const error = await openLocalSearchPort({ directory: lexical, mode: "write", embeddings: hashEmbeddings() }).catch(
      (caught: unknown) => caught,
    );
    expect(EmbedderMismatchError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("no embedder (lexical only)");

    const empty = join(directory, "empty");
    await (await build([], { directory: empty })).close();
    const writer = await build(records, { directory: empty, embeddings: hashEmbeddings() });
    await writer.close();
    expect((await open({ directory: empty, embeddings: hashEmbeddings() })).stats().embedder).toEqual({
      id: "test/hash",
      version: "1",
      dimension: 32,
    });
  });
});
