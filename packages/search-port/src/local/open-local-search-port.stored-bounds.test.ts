import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { CorruptIndexError } from "./errors/corrupt-index-error.js";
import { loadLazyGeneration } from "./reader/load-lazy-generation.js";
import { build, directory, open, useIndexFolder } from "./test/local-port-test-fixtures.js";
import type { IndexManifest } from "./format/index-manifest.js";
import { readManifest } from "./format/read-manifest.js";
import { recomputeChecksums } from "./test/recompute-checksums.js";
import { rewriteAsFormat4 } from "./test/rewrite-as-format-4.js";
import { rewriteAsFormat6 } from "./test/rewrite-as-format-6.js";
import { random } from "./test/seeded-random-test-fixtures.js";
import { scoreBoundsLayout } from "./lexical/stored-score-bounds.js";
import { blockBoundsOf, boundBlockPostings } from "./lexical/term-score-bounds.js";
import { lengthNorms } from "./lexical/length-norms.js";

useIndexFolder();

const vocabulary = Array.from({ length: 300 }, (_, index) => `term${index}q`);

/** `count` records of 5 to 80 words drawn with Zipf-like odds: common words hold many blocks, rare ones one. */
function zipfRecords(count: number, seed: number): KnowledgeRecord[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, index) => {
    const words = Array.from({ length: 5 + Math.floor(75 * next()) }, () => vocabulary[Math.floor(vocabulary.length * next() ** 3)]);
    return { id: `doc${index}#chunk-0`, content: words.join(" "), metadata: { docId: `doc${index}`, chunkIndex: 0 } };
  });
}

const queries = [
  "term0q term1q",
  "term2q term150q term299q",
  "term5q term5q term40q term7q",
  "term250q",
  "term0q term3q term9q term27q term81q",
];

async function hitsOf(port: Awaited<ReturnType<typeof open>>) {
  const all = [];
  for (const query of queries) all.push((await port.search({ query, topK: 25 })).map((hit) => [hit.id, hit.score]));
  return all;
}

function boundsFile(): string {
  return readdirSync(directory).find((name) => name.endsWith(".bounds.bin")) as string;
}

const corrupt = (what: string) => (error: unknown) => CorruptIndexError.isInstance(error) && error.message.includes(what);

describe("issue 14: an index of format 5 stores each term's block bounds", () => {
  it("stores for every term the bounds a pass over its postings gives", async () => {
    await (await build(zipfRecords(3000, 1))).close();
    rewriteAsFormat6(directory);
    const manifest = readManifest(directory) as IndexManifest;
    expect(manifest).toMatchObject({ formatVersion: 6, files: { bounds: { name: boundsFile() } } });
    const snapshot = loadLazyGeneration(directory, manifest, false);
    try {
      const { lexicon } = snapshot;
      const norms = lengthNorms(snapshot);
      let blocks = 0;
      for (let term = 0; term < lexicon.termCount; term += 1) {
        const stored = lexicon.storedBounds?.(term, lexicon.postings(term));
        expect(stored).toEqual(blockBoundsOf(lexicon.postings(term), norms));
        blocks += stored?.blocks.length ?? 0;
      }
      // The common words span many blocks.
      expect(lexicon.documentFrequency(lexicon.find("term0q"))).toBeGreaterThan(20 * boundBlockPostings);
      expect(manifest?.files.bounds?.bytes).toBe(scoreBoundsLayout(lexicon.termCount, blocks).bytes);
    } finally {
      snapshot.records.file?.close();
    }
  });

  it("finds the same hits with the same scores as an index of format 4, which has no bounds file, and a writer continues that in format 5", async () => {
    await (await build(zipfRecords(3000, 2))).close();
    rewriteAsFormat6(directory);
    const stored = await hitsOf(await open({ minScore: 0 }));
    expect(stored.every((hits) => hits.length === 25)).toBe(true);
    rewriteAsFormat4(directory);
    expect(boundsFile()).toBeUndefined();
    expect(await hitsOf(await open({ minScore: 0 }))).toEqual(stored);

    const writer = await open({ mode: "write" });
    await writer.upsert([{ id: "extra#chunk-0", content: "term250q term250q term251q", metadata: { docId: "extra", chunkIndex: 0 } }]);
    await writer.commit();
    expect(readManifest(directory)).toMatchObject({ formatVersion: 7, segments: [{ files: { bounds: { name: boundsFile() } } }] });
    const continued = await open({ minScore: 0 });
    expect((await continued.search({ query: "term250q", topK: 1 }))[0]?.id).toBe("extra#chunk-0");
  });

  it("refuses a damaged bounds file on the first search that reads the damaged block, not at open", async () => {
    await (await build(zipfRecords(3000, 3))).close();
    rewriteAsFormat6(directory);
    const name = boundsFile();
    const bytes = readFileSync(join(directory, name));
    // A byte of the last block's last slot.
    bytes[bytes.length - 2] = (bytes[bytes.length - 2] ?? 0) ^ 0x01;
    writeFileSync(join(directory, name), bytes);
    const reader = await open();
    expect(reader.stats().chunks).toBe(3000);
    await expect(reader.search({ query: "term0q", topK: 5 })).rejects.toSatisfy(corrupt(name));
  });

  it("refuses a manifest of format 5 that lists no bounds file, naming what is missing", async () => {
    await (await build(zipfRecords(200, 4))).close();
    rewriteAsFormat6(directory);
    rmSync(join(directory, boundsFile()));
    recomputeChecksums(directory, (manifest) => {
      delete manifest.files.bounds;
    });
    await expect(open()).rejects.toSatisfy(corrupt("the manifest of format 6 lists no bounds file with its block size"));
  });

  /** Builds `batch` into an emptied `directory`. */
  async function rebuild(batch: KnowledgeRecord[]) {
    for (const name of readdirSync(directory)) rmSync(join(directory, name), { recursive: true, force: true });
    await (await build(batch)).close();
    rewriteAsFormat6(directory);
  }

  /** Rewrites the bounds file through `change` (its three arrays, in place), checksums made to agree. */
  function editBounds(
    change: (parts: { bounds: Float64Array; firsts: Uint32Array; lasts: Uint32Array }) => void,
    edit?: Parameters<typeof recomputeChecksums>[1],
  ) {
    const path = join(directory, boundsFile());
    const bytes = readFileSync(path);
    const terms = (readManifest(directory) as IndexManifest).terms;
    const blocks = bytes.readUInt32LE(4 * terms);
    const layout = scoreBoundsLayout(terms, blocks);
    // Aligned copies of the three arrays (the bounds need not start at a multiple of 8).
    const part = (at: number, size: number) => new Uint8Array(bytes.subarray(at, at + size * blocks)).buffer;
    const parts = {
      bounds: new Float64Array(part(layout.boundsAt, 8)),
      firsts: new Uint32Array(part(layout.firstsAt, 4)),
      lasts: new Uint32Array(part(layout.lastsAt, 4)),
    };
    change(parts);
    bytes.set(new Uint8Array(parts.bounds.buffer), layout.boundsAt);
    bytes.set(new Uint8Array(parts.firsts.buffer), layout.firstsAt);
    bytes.set(new Uint8Array(parts.lasts.buffer), layout.lastsAt);
    writeFileSync(path, bytes);
    recomputeChecksums(directory, edit);
  }

  it("refuses stored bounds that do not match the term's postings, though every checksum agrees", async () => {
    const changes: [string, (parts: { bounds: Float64Array; firsts: Uint32Array; lasts: Uint32Array }) => void][] = [
      ["a bound above 1", ({ bounds }) => bounds.fill(1.5)],
      ["a bound that is not a number", ({ bounds }) => bounds.fill(Number.NaN)],
      // Every posting adds something (tf >= 1): a bound of 0 would skip the term's windows.
      ["a bound of 0", ({ bounds }) => bounds.fill(0)],
      ["a first slot not the block's", ({ firsts }) => firsts.fill(0)],
      ["a last slot past every record", ({ lasts }) => lasts.fill(0xffffffff)],
    ];
    for (const [what, change] of changes) {
      await rebuild(zipfRecords(3000, 5));
      editBounds(change);
      const reader = await open();
      await expect(reader.search({ query: "term0q term1q", topK: 5 }), what).rejects.toSatisfy(
        corrupt("does not match the postings of term"),
      );
      await reader.close();
    }
  });

  it("does not use bounds stored with other BM25 parameters or another block size: the same hits, from a pass over the postings", async () => {
    await (await build(zipfRecords(3000, 7))).close();
    rewriteAsFormat6(directory);
    const intact = await hitsOf(await open({ minScore: 0 }));
    const edits: [string, Parameters<typeof recomputeChecksums>[1]][] = [
      [
        "k1",
        (manifest) => {
          manifest.bm25.k1 += 0.1;
        },
      ],
      [
        "b",
        (manifest) => {
          manifest.bm25.b /= 2;
        },
      ],
      [
        "block size",
        (manifest) => {
          manifest.boundBlockPostings = 2 * boundBlockPostings;
        },
      ],
    ];
    for (const [what, edit] of edits) {
      await rebuild(zipfRecords(3000, 7));
      // Used, these would be refused (the test above).
      editBounds(({ bounds }) => bounds.fill(0), edit);
      expect(await hitsOf(await open({ minScore: 0 })), what).toEqual(intact);
    }
  });

  it("refuses a manifest of format 5 that names no block hash or no bounds block size, naming what is missing", async () => {
    await rebuild(zipfRecords(200, 8));
    recomputeChecksums(directory, (manifest) => {
      delete manifest.blockHash;
    });
    await expect(open()).rejects.toSatisfy(corrupt("the manifest of format 6 names no block hash"));
    await rebuild(zipfRecords(200, 8));
    recomputeChecksums(directory, (manifest) => {
      delete manifest.boundBlockPostings;
    });
    await expect(open()).rejects.toSatisfy(corrupt("the manifest of format 6 lists no bounds file with its block size"));
  });
});
