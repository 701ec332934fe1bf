import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { ConfigurationError, InvalidFilterError, LookupKnowledgeError } from "@lookup-knowledge/core";
import type { MetadataFilter } from "@lookup-knowledge/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidWriteError } from "../invalid-write-error.js";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { matchesFilter } from "../matches-filter.js";
import { CorruptIndexError } from "./corrupt-index-error.js";
import { EmbedderMismatchError } from "./embedder-mismatch-error.js";
import { IndexLockedError } from "./index-locked-error.js";
import { IndexNotFoundError } from "./index-not-found-error.js";
import type { LocalSearchPort, LocalSearchPortOptions } from "./local-search-port.js";
import { openLocalSearchPort, openLocalSearchPortWithHooks } from "./open-local-search-port.js";

/**
 * A deterministic test embedder: words (lower-cased, letters and digits) hashed into
 * `dimension` buckets, unit length. Texts sharing words have a positive cosine.
 */
function hashEmbeddings(options: { dimension?: number; id?: string; delayMs?: number; queryDelayMs?: number } = {}) {
  const dimension = options.dimension ?? 32;
  const embed = (text: string): number[] => {
    const vector = new Array<number>(dimension).fill(0);
    for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
      let hash = 2_166_136_261;
      for (const character of word) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 16_777_619);
      const bucket = (hash >>> 0) % dimension;
      vector[bucket] = (vector[bucket] ?? 0) + 1;
    }
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  };
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const embeddings = {
    identity: { id: options.id ?? "test/hash", version: "1", dimension },
    calls: 0,
    async embedQuery(text: string) {
      embeddings.calls += 1;
      const delay = options.queryDelayMs ?? options.delayMs;
      if (delay !== undefined) await wait(delay);
      return embed(text);
    },
    async embedDocuments(texts: string[]) {
      if (options.delayMs !== undefined) await wait(options.delayMs);
      return texts.map(embed);
    },
  };
  return embeddings satisfies EmbeddingsInterface;
}

const records: KnowledgeRecord[] = [
  {
    id: "refunds#chunk-0",
    content: "Refunds are paid back to the original card within five business days.",
    metadata: { docId: "refunds", chunkIndex: 0, title: "Refund policy", category: "billing", year: 2023, tags: ["money", "cards"] },
  },
  {
    id: "refunds#chunk-1",
    content: "A refund for a cancelled order needs the order number and the receipt.",
    metadata: { docId: "refunds", chunkIndex: 1, title: "Refund policy", category: "billing", year: 2024, tags: ["orders"] },
  },
  {
    id: "shipping#chunk-0",
    content: "Parcels leave the Rotterdam warehouse every weekday at noon.",
    metadata: { doc_id: "shipping", chunk_index: 0, title: "Shipping", category: "logistics", year: 2022, public: true },
  },
  {
    id: "passwords#chunk-0",
    content: "To reset a forgotten password, open the sign-in page and follow the reset link sent by email.",
    metadata: { docId: "passwords", chunkIndex: 0, title: "Account security", category: "accounts", year: 2024, public: false },
  },
  {
    id: "limits#chunk-0",
    content: "The public API allows 100 requests per minute per key; extra requests get status 429.",
    metadata: { docId: "limits", chunkIndex: 0, title: "Rate limits", category: "api", tags: ["api", "limits"] },
  },
  {
    id: "zh#chunk-0",
    content: "网关限流插件可以限制每个客户端每秒的请求数量。",
    metadata: { docId: "zh-limits", chunkIndex: 0, title: "限流插件", category: "api", lang: "zh" },
  },
];

let directory: string;
const opened: LocalSearchPort[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "local-port-"));
});

afterEach(async () => {
  for (const port of opened.splice(0)) await port.close();
  rmSync(directory, { recursive: true, force: true });
});

async function open(options: Partial<LocalSearchPortOptions> = {}): Promise<LocalSearchPort> {
  const port = await openLocalSearchPort({ directory, ...options });
  opened.push(port);
  return port;
}

async function build(batch: KnowledgeRecord[] = records, options: Partial<LocalSearchPortOptions> = {}): Promise<LocalSearchPort> {
  const writer = await open({ mode: "write", ...options });
  await writer.upsert(batch);
  await writer.commit();
  return writer;
}

const ids = (hits: Array<{ id?: string }>) => hits.map((hit) => hit.id);

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
    await expect(port.search({ query: "refund", topK: 3, filter: { year: { $regex: "x" } } as unknown as MetadataFilter })).rejects.toSatisfy(
      (error: unknown) => InvalidFilterError.isInstance(error),
    );
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

describe("openLocalSearchPort: writes", () => {
  it("starts empty: a fresh writer finds nothing, and its empty commit can be opened by a reader", async () => {
    const writer = await open({ mode: "write" });
    expect(await writer.search({ query: "refund", topK: 5 })).toEqual([]);
    expect(writer.stats()).toEqual({ documents: 0, chunks: 0, bytesOnDisk: 0 });
    await writer.commit();
    const reader = await open();
    expect(await reader.search({ query: "refund", topK: 5 })).toEqual([]);
    expect(reader.stats()).toMatchObject({ documents: 0, chunks: 0 });
    expect(reader.stats().lastCommit).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("replaces a record upserted again with the same id", async () => {
    const writer = await build();
    await writer.upsert([{ id: "shipping#chunk-0", content: "Parcels now leave from the Antwerp depot.", metadata: { docId: "shipping", chunkIndex: 0 } }]);
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
        left.forEach((hit, index) => expect(hit.score).toBeCloseTo(right[index]?.score ?? -1, 6));
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
    await expect(writer.upsert([{ id: "a", content: 3, metadata: {} } as unknown as KnowledgeRecord])).rejects.toThrow(/\(a\) needs string content/);
  });

  it("refuses bad write arguments with an InvalidWriteError, never a plain TypeError", async () => {
    const writer = await open({ mode: "write" });
    await expect(writer.upsert([null as unknown as KnowledgeRecord])).rejects.toSatisfy(
      (error: unknown) => InvalidWriteError.isInstance(error) && error.code === "invalid_record" && !(error instanceof TypeError),
    );
    await expect(writer.upsert("a" as unknown as KnowledgeRecord[])).rejects.toMatchObject({ code: "invalid_argument", operation: "upsert" });
    await expect(writer.deleteDocuments("a" as unknown as string[])).rejects.toMatchObject({ code: "invalid_argument", operation: "deleteDocuments" });
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

describe("openLocalSearchPort: persistence", () => {
  it("round-trips records, metadata, scores and stats through the folder", async () => {
    const unusual: KnowledgeRecord = {
      id: "odd id\nwith newline #chunk-0",
      content: 'Line one\nline two with "quotes", emoji 🚀 and a comma, at the end,',
      metadata: { docId: "odd", chunkIndex: 0, nested: { deep: [1, "two", null] }, title: "Rocket manual" },
    };
    const writer = await build([...records, unusual], { embeddings: hashEmbeddings() });
    const queries = ["refund card", "rocket emoji quotes", "限流", "password reset email"];
    const before = await Promise.all(queries.map((query) => writer.search({ query, topK: 4 })));
    const statsBefore = writer.stats();
    await writer.close();
    const reader = await open({ embeddings: hashEmbeddings() });
    const after = await Promise.all(queries.map((query) => reader.search({ query, topK: 4 })));
    expect(after).toEqual(before);
    expect(after[1]?.[0]).toEqual({ id: unusual.id, content: unusual.content, metadata: unusual.metadata, score: expect.any(Number), answerability: expect.objectContaining({ score: expect.any(Number) }) });
    expect(reader.stats()).toEqual(statsBefore);
    expect(statsBefore).toMatchObject({ chunks: 7, documents: 6, embedder: { id: "test/hash", version: "1", dimension: 32 } });
    expect(statsBefore.bytesOnDisk).toBeGreaterThan(1000);
    const files = readdirSync(directory).sort();
    expect(files).toContain("manifest.json");
    expect(files.filter((name) => /^00000001-[0-9a-f]{16}\./.test(name))).toHaveLength(7);
  });

  it("keeps only the files of the last commit", async () => {
    const writer = await build();
    await writer.upsert([{ id: "more", content: "more text", metadata: {} }]);
    await writer.commit();
    const generations = new Set(
      readdirSync(directory)
        .filter((name) => /^\d{8}-/.test(name))
        .map((name) => name.slice(0, 8)),
    );
    expect([...generations]).toEqual(["00000002"]);
  });

  it("lets a reader keep searching the generation it opened after a writer commits and removes its files", async () => {
    const writer = await build();
    // Until it next looks for a newer commit (an hour away here).
    const reader = await open({ refreshIntervalMs: 3_600_000 });
    await writer.deleteDocuments(["refunds"]);
    await writer.commit();
    const [hit] = await reader.search({ query: "refund card", topK: 1 });
    expect(hit).toMatchObject({ id: "refunds#chunk-0", content: records[0]?.content });
    const fresh = await open();
    expect(await fresh.search({ query: "refund card", topK: 1 })).toEqual([]);
  });

  it("leaves the last good index when a commit crashes between the data files and the manifest", async () => {
    const first = await build(records.slice(0, 3));
    await first.close();
    const aside = mkdtempSync(join(tmpdir(), "local-port-crash-"));
    try {
      const writer = await openLocalSearchPortWithHooks(
        { directory, mode: "write" },
        {
          afterDataFiles: (generation) => {
            // The new generation is fully written; keep a copy as the dead process would have left it.
            for (const name of readdirSync(directory)) if (name.startsWith(String(generation).padStart(8, "0"))) cpSync(join(directory, name), join(aside, name));
            throw new Error("simulated crash");
          },
        },
      );
      opened.push(writer);
      await writer.deleteDocuments(["refunds"]);
      await writer.upsert(records.slice(3));
      await expect(writer.commit()).rejects.toThrow("simulated crash");
      await writer.close();
      // What a killed process leaves behind: the new data files, the old manifest. Its
      // lock went stale before another writer could open, so its files are older than that.
      const longAgo = new Date(Date.now() - 60_000);
      for (const name of readdirSync(aside)) {
        cpSync(join(aside, name), join(directory, name));
        utimesSync(join(directory, name), longAgo, longAgo);
      }
      expect(readdirSync(directory).some((name) => name.startsWith("00000002-"))).toBe(true);

      const reader = await open();
      expect(reader.stats().chunks).toBe(3);
      expect(ids(await reader.search({ query: "refund card", topK: 1 }))).toEqual(["refunds#chunk-0"]);
      expect(await reader.search({ query: "password", topK: 1 })).toEqual([]);

      // The next writer clears the leftovers and commits as generation 2.
      const next = await open({ mode: "write" });
      expect(readdirSync(directory).some((name) => name.startsWith("00000002-"))).toBe(false);
      await next.upsert(records.slice(3));
      await next.commit();
      expect(next.stats().chunks).toBe(records.length);
    } finally {
      rmSync(aside, { recursive: true, force: true });
    }
  });

  it("throws CorruptIndexError naming the folder and file when a data file was changed", async () => {
    const writer = await build();
    await writer.close();
    const postings = readdirSync(directory).find((name) => name.endsWith(".postings.bin")) as string;
    const bytes = readFileSync(join(directory, postings));
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    writeFileSync(join(directory, postings), bytes);
    const error = await openLocalSearchPort({ directory }).catch((caught: unknown) => caught);
    expect(CorruptIndexError.isInstance(error)).toBe(true);
    expect((error as CorruptIndexError).code).toBe("corrupt_index");
    expect((error as Error).message).toContain(directory);
    expect((error as Error).message).toContain(postings);
  });

  it("throws CorruptIndexError for a malformed manifest or a missing data file", async () => {
    const writer = await build();
    await writer.close();
    const content = readdirSync(directory).find((name) => name.endsWith(".content.txt")) as string;
    rmSync(join(directory, content));
    await expect(openLocalSearchPort({ directory })).rejects.toThrow(new RegExp(`${content}.*is missing`));
    writeFileSync(join(directory, "manifest.json"), "{ not json");
    await expect(openLocalSearchPort({ directory })).rejects.toSatisfy((error: unknown) => CorruptIndexError.isInstance(error));
  });

  it("throws IndexNotFoundError for a reader of a folder without an index", async () => {
    const missing = join(directory, "nothing-here");
    const error = await openLocalSearchPort({ directory: missing }).catch((caught: unknown) => caught);
    expect(IndexNotFoundError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(missing);
    expect(existsSync(missing)).toBe(false);
  });
  it("throws CorruptIndexError naming the folder and file when a content file is truncated after it was opened", async () => {
    await (await build()).close();
    const reader = await open();
    const content = readdirSync(directory).find((name) => name.endsWith(".content.txt")) as string;
    truncateSync(join(directory, content), 0);
    const error = await reader.search({ query: "refund card", topK: 1 }).catch((caught: unknown) => caught);
    expect(CorruptIndexError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(directory);
    expect((error as Error).message).toContain(content);
  });

  it.skipIf(process.platform !== "linux")("closes every file it opened when a commit cannot open the files it just wrote", async () => {
    const openFiles = () => readdirSync("/proc/self/fd").length;
    const writer = await openLocalSearchPortWithHooks(
      { directory, mode: "write" },
      { afterManifest: (manifest) => rmSync(join(directory, manifest.files.metadata.name)) },
    );
    opened.push(writer);
    await writer.upsert(records);
    const before = openFiles();
    await expect(writer.commit()).rejects.toSatisfy((error: unknown) => CorruptIndexError.isInstance(error));
    expect(openFiles()).toBe(before);
  });
  it("reads and continues an index of format version 1 (data files named by generation alone)", async () => {
    await (await build(records.slice(0, 3))).close();
    const path = join(directory, "manifest.json");
    const manifest = JSON.parse(readFileSync(path, "utf8")) as { formatVersion: number; id?: string; files: Record<string, { name: string }> };
    for (const entry of Object.values(manifest.files)) {
      const old = entry.name.replace(/-[0-9a-f]{16}\./, ".");
      renameSync(join(directory, entry.name), join(directory, old));
      entry.name = old;
    }
    delete manifest.id;
    manifest.formatVersion = 1;
    writeFileSync(path, JSON.stringify(manifest));
    expect(ids(await (await open()).search({ query: "refund card", topK: 1 }))).toEqual(["refunds#chunk-0"]);
    const writer = await open({ mode: "write" });
    await writer.upsert(records.slice(3));
    await writer.commit();
    const next = JSON.parse(readFileSync(path, "utf8")) as { formatVersion: number; generation: number; id: string };
    expect(next).toMatchObject({ formatVersion: 3, generation: 2, id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(readdirSync(directory).filter((name) => /^\d{8}\./.test(name))).toEqual([]);
    expect((await open()).stats().chunks).toBe(records.length);
  });
});

describe("openLocalSearchPort: locking", () => {
  it("refuses a second writer with IndexLockedError naming the folder; readers still open; after close a writer can open", async () => {
    const writer = await build();
    const error = await openLocalSearchPort({ directory, mode: "write" }).catch((caught: unknown) => caught);
    expect(IndexLockedError.isInstance(error)).toBe(true);
    expect((error as IndexLockedError).code).toBe("index_locked");
    expect((error as Error).message).toContain(directory);
    expect((error as Error).message).toMatch(/another process is writing/);
    const reader = await open();
    expect(reader.stats().chunks).toBe(records.length);
    await writer.close();
    const second = await open({ mode: "write" });
    await second.deleteDocuments(["refunds"]);
    await second.commit();
    expect(second.stats().chunks).toBe(records.length - 2);
  });
  const lockPath = () => join(directory, "write.lock");
  /** Makes the lock look stale, as a writer that stopped refreshing it for a minute. */
  const backdateLock = () => {
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lockPath(), longAgo, longAgo);
  };
  const dataFiles = () =>
    readdirSync(directory)
      .filter((name) => name !== "manifest.json" && name !== "write.lock")
      .sort();
  const manifestFiles = () =>
    Object.values((JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8")) as { files: Record<string, { name: string }> }).files)
      .map((entry) => entry.name)
      .sort();
  const lostLock = (pattern: RegExp) => (error: unknown) =>
    IndexLockedError.isInstance(error) && /lock of the index .* was lost/.test(error.message) && pattern.test(error.message);

  it("refuses the commit of a writer whose stale lock was taken over by a writer that committed, and keeps that commit intact", async () => {
    const first = await build(records.slice(0, 2));
    backdateLock();
    const second = await open({ mode: "write" });
    await second.upsert(records.slice(2, 4));
    await second.commit();
    const committed = readFileSync(join(directory, "manifest.json"), "utf8");

    await first.upsert(records.slice(4));
    await expect(first.commit()).rejects.toSatisfy(lostLock(/another writer/));
    // The second writer's manifest and files are untouched; the first one removed only its own files.
    expect(readFileSync(join(directory, "manifest.json"), "utf8")).toBe(committed);
    expect(dataFiles()).toEqual(manifestFiles());
    const reader = await open();
    expect(reader.stats().chunks).toBe(4);
    expect(ids(await reader.search({ query: "reset forgotten password", topK: 1 }))).toEqual(["passwords#chunk-0"]);

    await expect(first.upsert(records)).rejects.toSatisfy((error: unknown) => IndexLockedError.isInstance(error));
    await first.close();
    expect(existsSync(lockPath())).toBe(true);
    await second.deleteDocuments(["shipping"]);
    await second.commit();
    expect((await open()).stats().chunks).toBe(3);
  });

  it("refuses the commit of a writer whose lock was taken over before the new holder committed", async () => {
    const first = await build(records.slice(0, 2));
    backdateLock();
    const second = await open({ mode: "write" });
    await first.upsert(records.slice(2));
    await expect(first.commit()).rejects.toSatisfy(lostLock(/another writer took write\.lock over/));
    expect(dataFiles()).toEqual(manifestFiles());
    await second.upsert(records.slice(2, 3));
    await second.commit();
    expect((await open()).stats().chunks).toBe(3);
  });

  it("refuses to commit once its lock is stale, before anyone takes it over", async () => {
    const writer = await build(records.slice(0, 2));
    backdateLock();
    await writer.upsert(records.slice(2));
    await expect(writer.commit()).rejects.toSatisfy(lostLock(/stale/));
    expect((await open()).stats().chunks).toBe(2);
  });

  it("refuses to switch the manifest when another writer committed since this writer last read it", async () => {
    const writer = await build(records.slice(0, 2));
    const elsewhere = mkdtempSync(join(tmpdir(), "local-port-other-"));
    try {
      const other = await openLocalSearchPort({ directory: elsewhere, mode: "write" });
      await other.upsert(records.slice(3, 5));
      await other.commit();
      await other.close();
      // What a writer that took over the folder would have committed.
      for (const name of readdirSync(elsewhere)) if (name !== "write.lock") cpSync(join(elsewhere, name), join(directory, name));
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    const committed = readFileSync(join(directory, "manifest.json"), "utf8");
    const before = dataFiles();
    await writer.upsert(records.slice(5));
    await expect(writer.commit()).rejects.toSatisfy(lostLock(/another writer committed/));
    expect(readFileSync(join(directory, "manifest.json"), "utf8")).toBe(committed);
    expect(dataFiles()).toEqual(before);
    expect(ids(await (await open()).search({ query: "reset forgotten password", topK: 1 }))).toEqual(["passwords#chunk-0"]);
    await expect(writer.upsert(records)).rejects.toSatisfy(lostLock(/another writer committed/));
  });

  it("removes unreferenced files only when this writer made them or they are older than the lock's stale time", async () => {
    await (await build(records.slice(0, 2))).close();
    // A writer that lost the lock may still be writing a file like the first; the second was abandoned long ago.
    const recent = join(directory, "00000002.content.txt");
    const abandoned = join(directory, "00000003.content.txt");
    writeFileSync(recent, "in progress");
    writeFileSync(abandoned, "left by a crash");
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(abandoned, longAgo, longAgo);
    const writer = await open({ mode: "write" });
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(abandoned)).toBe(false);
    await writer.upsert(records.slice(2));
    await writer.commit();
    expect(existsSync(recent)).toBe(true);
    expect(dataFiles()).toEqual([...manifestFiles(), "00000002.content.txt"].sort());
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
    await expect(openLocalSearchPort({ directory, mode: "write" })).rejects.toSatisfy((error: unknown) => EmbedderMismatchError.isInstance(error));
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
    const error = await openLocalSearchPort({ directory: lexical, mode: "write", embeddings: hashEmbeddings() }).catch((caught: unknown) => caught);
    expect(EmbedderMismatchError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("no embedder (lexical only)");

    const empty = join(directory, "empty");
    await (await build([], { directory: empty })).close();
    const writer = await build(records, { directory: empty, embeddings: hashEmbeddings() });
    await writer.close();
    expect((await open({ directory: empty, embeddings: hashEmbeddings() })).stats().embedder).toEqual({ id: "test/hash", version: "1", dimension: 32 });
  });
});
