import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { readManifest } from "./format/read-manifest.js";
import type { SegmentedManifest } from "./format/segmented-manifest.js";
import { openLocalSearchPort, openLocalSearchPortWithHooks } from "./open-local-search-port.js";
import type { LocalSearchPort } from "./port/local-search-port.js";
import type { MergePolicy } from "./segments/choose-merges.js";
import { directory, hashEmbeddings, opened, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { rewriteAsFormat6 } from "./test/rewrite-as-format-6.js";
import { random } from "./test/seeded-random-test-fixtures.js";

useIndexFolder();

const vocabulary = Array.from({ length: 120 }, (_, index) => `w${index}x`);
const topics = ["billing", "shipping", "accounts"];

/** Merges early and often, so a short random history makes and merges many segments. */
const eagerMerges: MergePolicy = { segmentsPerLevel: 3, floorRecords: 4, maxMergedRecords: 1_000_000, deletedShare: 0.4 };

/** The chunks of document `docId` in its version `version`: 1 to 4 chunks of Zipf-like words. */
function documentChunks(next: () => number, docId: string, version: number): KnowledgeRecord[] {
  const chunks = 1 + Math.floor(4 * next());
  return Array.from({ length: chunks }, (_, chunkIndex) => {
    const words = Array.from({ length: 3 + Math.floor(30 * next()) }, () => vocabulary[Math.floor(vocabulary.length * next() ** 2)]);
    return {
      id: `${docId}#chunk-${chunkIndex}`,
      content: `${words.join(" ")} v${version}`,
      metadata: { docId, chunkIndex, topic: topics[Math.floor(topics.length * next())] as string },
    };
  });
}

function randomQuery(next: () => number): string {
  return Array.from({ length: 1 + Math.floor(3 * next()) }, () => vocabulary[Math.floor(vocabulary.length * next() ** 1.5)]).join(" ");
}

/** Every answer a port gives that depends on the index's records: hits with scores (lexical, hybrid, filtered), counts, metadata keys, fetched records. */
async function answers(port: LocalSearchPort, queries: readonly string[], ids: readonly string[]) {
  const hits = [];
  for (const query of queries) {
    for (const filter of [undefined, { topic: "billing" }]) {
      const found = await port.search({ query, topK: 8, ...(filter === undefined ? {} : { filter }) });
      hits.push(found.map((hit) => [hit.id, hit.score, hit.content]));
    }
  }
  const { chunks, documents } = port.stats();
  return { hits, chunks, documents, keys: port.metadataKeys().keys, fetched: await port.fetchRecords(ids) };
}

/** The same answers from an index built fresh, in one commit, from `records`. */
async function freshAnswers(records: readonly KnowledgeRecord[], queries: readonly string[], ids: readonly string[], dense: boolean) {
  const elsewhere = mkdtempSync(join(tmpdir(), "local-port-fresh-"));
  try {
    const embeddings = dense ? { embeddings: hashEmbeddings() } : {};
    const writer = await openLocalSearchPort({ directory: elsewhere, mode: "write", minScore: 0, ...embeddings });
    await writer.upsert([...records]);
    await writer.commit();
    await writer.close();
    const reader = await openLocalSearchPort({ directory: elsewhere, minScore: 0, ...embeddings });
    try {
      return await answers(reader, queries, ids);
    } finally {
      await reader.close();
    }
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
}

describe("issue 36 item 1: an index of segments answers as an index built fresh from its live records", () => {
  for (const [seed, dense, flushRecords, fromFormat6] of [
    [3601, false, undefined, false],
    [3602, true, undefined, false],
    [3603, true, 6, false],
    [3604, true, 5, true],
  ] as const) {
    const flushes = flushRecords === undefined ? "" : `, segments written every ${flushRecords} records (issue 36 item 3)`;
    const upgraded = fromFormat6 ? ", from an index of format 6 (issue 36 item 8)" : "";
    it(`seed ${seed}${dense ? ", with vectors" : ""}${flushes}${upgraded}: random upserts, deletes, commits, merges and reopenings`, async () => {
      const next = random(seed);
      const embeddings = dense ? { embeddings: hashEmbeddings() } : {};
      const hooks = { mergePolicy: eagerMerges, ...(flushRecords === undefined ? {} : { flushRecords }) };
      const openWriter = () => openLocalSearchPortWithHooks({ directory, mode: "write", minScore: 0, ...embeddings }, hooks);
      /** The live records, as a model: by id, in upsert order. */
      const model = new Map<string, KnowledgeRecord>();
      const versions = new Map<string, number>();
      if (fromFormat6) {
        const first = Array.from({ length: 12 }, (_, index) => documentChunks(next, `doc${index}`, 1)).flat();
        const builder = await openLocalSearchPort({ directory, mode: "write", ...embeddings });
        await builder.upsert(first);
        await builder.commit();
        await builder.close();
        rewriteAsFormat6(directory);
        for (const chunk of first) model.set(chunk.id, chunk);
        for (let index = 0; index < 12; index += 1) versions.set(`doc${index}`, 1);
      }
      let writer = await openWriter();
      let compared = 0;
      let mostSegments = 0;
      let deletedSeen = false;
      for (let step = 0; step < 28; step += 1) {
        // Upserts of new or changed documents (a changed document drops the chunks it no longer has).
        for (let change = Math.floor(4 * next()); change > 0; change -= 1) {
          const docId = `doc${Math.floor(30 * next())}`;
          const version = (versions.get(docId) ?? 0) + 1;
          versions.set(docId, version);
          const chunks = documentChunks(next, docId, version);
          if (next() < 0.5) {
            await writer.deleteDocuments([docId]);
            for (const id of [...model.keys()]) if (id.startsWith(`${docId}#`)) model.delete(id);
          }
          await writer.upsert(chunks);
          for (const chunk of chunks) {
            model.delete(chunk.id);
            model.set(chunk.id, chunk);
          }
        }
        if (next() < 0.3) {
          const docId = `doc${Math.floor(30 * next())}`;
          await writer.deleteDocuments([docId]);
          for (const id of [...model.keys()]) if (id.startsWith(`${docId}#`)) model.delete(id);
        }
        const roll = next();
        if (roll < 0.1) await writer.optimize();
        else if (roll < 0.75) await writer.commit();
        if (roll >= 0.75) continue;
        if (next() < 0.2) {
          await writer.close();
          writer = await openWriter();
        }
        const manifest = readManifest(directory) as SegmentedManifest;
        mostSegments = Math.max(mostSegments, manifest.segments.length);
        deletedSeen ||= manifest.segments.some((segment) => segment.deleted > 0);
        const queries = Array.from({ length: 6 }, () => randomQuery(next));
        const ids = [...model.keys()].filter(() => next() < 0.2).concat(["doc99#chunk-0"]);
        const expected = await freshAnswers([...model.values()], queries, ids, dense);
        const reader = await openLocalSearchPort({ directory, minScore: 0, ...embeddings });
        opened.push(reader);
        expect(await answers(reader, queries, ids), `step ${step}: a reader`).toEqual(expected);
        expect(await answers(writer, queries, ids), `step ${step}: the writer`).toEqual(expected);
        compared += 1;
      }
      await writer.close();
      // The history made several segments and deletions, and compared often.
      expect(compared).toBeGreaterThan(10);
      expect(mostSegments).toBeGreaterThan(2);
      expect(deletedSeen).toBe(true);
    });
  }

  it("issue 36 item 1: a one-document change writes a segment of its records and a deletions list, not the index again", async () => {
    const next = random(3611);
    const writer = await openLocalSearchPortWithHooks({ directory, mode: "write" }, {});
    opened.push(writer);
    await writer.upsert(Array.from({ length: 60 }, (_, index) => documentChunks(next, `doc${index}`, 1)).flat());
    await writer.commit();
    const before = new Set(readdirSync(directory));
    const first = readManifest(directory) as SegmentedManifest;
    await writer.upsert(documentChunks(next, "doc7", 2));
    await writer.deleteDocuments(["doc8"]);
    await writer.commit();
    const manifest = readManifest(directory) as SegmentedManifest;
    expect(manifest.segments[0]?.files).toEqual(first.segments[0]?.files);
    expect(manifest.segments[0]?.deleted).toBeGreaterThan(0);
    const written = readdirSync(directory).filter((name) => !before.has(name) && name !== "manifest.json");
    expect(written.every((name) => name.startsWith("00000002-"))).toBe(true);
    expect(written.some((name) => name.endsWith(".deletes.bin"))).toBe(true);
    expect(writer.stats().segments).toBe(2);
    await writer.optimize();
    expect(writer.stats().segments).toBe(1);
    const merged = readManifest(directory) as SegmentedManifest;
    expect(merged.segments).toHaveLength(1);
    expect(merged.segments[0]?.deleted).toBe(0);
    expect(merged.files.deletes).toBeUndefined();
    expect(merged.chunks).toBe(manifest.chunks);
  });

  it("issue 36 item 3: a writer writes a segment each time it holds flushRecords records, listed by the next commit only", async () => {
    const next = random(3621);
    const writer = await openLocalSearchPortWithHooks({ directory, mode: "write", minScore: 0 }, { flushRecords: 10 });
    opened.push(writer);
    const documents = Array.from({ length: 40 }, (_, index) => documentChunks(next, `doc${index}`, 1));
    const all = documents.flat();
    for (let start = 0; start < documents.length; start += 4) await writer.upsert(documents.slice(start, start + 4).flat());
    const keysFiles = () => readdirSync(directory).filter((name) => name.endsWith(".keys.bin"));
    // Written as the records came, before any commit: nothing lists them yet.
    // A batch adds at most 16 records, so each segment holds 10 to 25.
    expect(keysFiles().length).toBeGreaterThanOrEqual(Math.floor(all.length / 26));
    expect(readManifest(directory)).toBeUndefined();
    const ids = all.map((record) => record.id);
    const queries = ["w1x w2x", "w5x", "w0x w9x w30x"];
    const expected = await freshAnswers(all, queries, ids, false);
    expect(await answers(writer, queries, ids)).toEqual(expected);
    await writer.commit();
    const manifest = readManifest(directory) as SegmentedManifest;
    expect(manifest.segments.length).toBe(keysFiles().length);
    expect(manifest.segments.length).toBeGreaterThan(2);
    expect(manifest.segments.every((segment) => segment.chunks < 10 + 16)).toBe(true);
    const reader = await openLocalSearchPort({ directory, minScore: 0 });
    opened.push(reader);
    expect(await answers(reader, queries, ids)).toEqual(expected);
  });
});
