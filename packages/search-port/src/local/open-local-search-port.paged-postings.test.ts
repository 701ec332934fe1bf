import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { readManifest } from "./format/read-manifest.js";
import type { SegmentedManifest } from "./format/segmented-manifest.js";
import { pagedLeast } from "./lexical/file-lexicon.js";
import { PagedPostings } from "./lexical/paged-postings.js";
import { openLocalSearchPort } from "./open-local-search-port.js";
import type { LocalSearchPort } from "./port/local-search-port.js";
import { build, directory, open, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { random } from "./test/seeded-random-test-fixtures.js";

useIndexFolder();

const vocabulary = Array.from({ length: 400 }, (_, index) => `word${index}z`);

/** Records `from` to `from + count - 1` of 5 to 40 words drawn with Zipf-like odds: the commonest words are held by most records. */
function zipfRecords(from: number, count: number, seed: number): KnowledgeRecord[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, offset) => {
    const index = from + offset;
    const words = Array.from({ length: 5 + Math.floor(35 * next()) }, () => vocabulary[Math.floor(vocabulary.length * next() ** 3)]);
    return {
      id: `doc${index}#chunk-0`,
      content: words.join(" "),
      metadata: { docId: `doc${index}`, chunkIndex: 0, half: index % 2 === 0 ? "even" : "odd" },
    };
  });
}

const queries = [
  "word0z",
  "word0z word1z",
  "word0z word1z word2z word3z",
  "word0z word150z",
  "word1z word77z word333z",
  "word2z word2z word9z",
];

async function hitsOf(port: LocalSearchPort) {
  const all = [];
  for (const query of queries) {
    for (const topK of [1, 10, 60]) all.push((await port.search({ query, topK })).map((hit) => [hit.id, hit.score]));
    all.push((await port.search({ query, topK: 10, filter: { half: "even" } })).map((hit) => [hit.id, hit.score]));
  }
  return all;
}

describe("issue 36 (lexical search at ten million chunks): long postings lists of a segment read page by page", () => {
  it("finds the same hits with the same scores as an index of the same live records built fresh in one commit", async () => {
    // Three commits of 12,000 records, 600 deleted from the first: three segments, whose
    // commonest words hold more than `pagedLeast` postings each.
    const batches = [zipfRecords(0, 12_000, 1), zipfRecords(12_000, 12_000, 2), zipfRecords(24_000, 12_000, 3)];
    const writer = await build(batches[0]);
    await writer.upsert(batches[1] as KnowledgeRecord[]);
    await writer.commit();
    await writer.upsert(batches[2] as KnowledgeRecord[]);
    const deleted = Array.from({ length: 600 }, (_, index) => `doc${7 * index}`);
    await writer.deleteDocuments(deleted);
    await writer.commit();
    await writer.close();
    expect((readManifest(directory) as SegmentedManifest).segments).toHaveLength(3);

    const seek = vi.spyOn(PagedPostings.prototype, "seek");
    const segmented = await hitsOf(await open({ minScore: 0 }));
    // The commonest word's lists were read page by page.
    expect(seek).toHaveBeenCalled();
    seek.mockRestore();

    const gone = new Set(deleted);
    const live = batches.flat().filter((record) => !gone.has(record.metadata.docId as string));
    expect(live.filter((record) => record.content.split(" ").includes("word0z")).length / 3).toBeGreaterThan(pagedLeast);
    const elsewhere = mkdtempSync(join(tmpdir(), "local-port-fresh-"));
    try {
      const fresh = await openLocalSearchPort({ directory: elsewhere, mode: "write", minScore: 0 });
      await fresh.upsert(live);
      await fresh.commit();
      await fresh.close();
      const reader = await openLocalSearchPort({ directory: elsewhere, minScore: 0 });
      try {
        expect(segmented).toEqual(await hitsOf(reader));
      } finally {
        await reader.close();
      }
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
