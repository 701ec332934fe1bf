import { describe, it } from "vitest";
import { expectPlainMatchesSchema } from "../../internal/test/plain-check-test-fixtures.js";
import { indexManifestSchema, readPlainIndexManifest } from "./index-manifest.js";
import { readPlainSegmentedManifest, segmentedManifestSchema } from "./segmented-manifest.js";

// Manifests as writers write them (their fields in the writer's order, not the schema's), kept
// here rather than built, so that the checks are held against every field of each format.
const hash = (digit: string) => digit.repeat(64);
const entry = (generation: number, kind: string, extension = "bin") => ({
  name: `0000000${generation}-9ada0df055f62985.${kind}.${extension}`,
  bytes: 24,
  sha256: hash("b"),
});
const segmentFiles = (generation: number) => ({
  keys: entry(generation, "keys"),
  terms: entry(generation, "terms", "txt"),
  postings: entry(generation, "postings"),
  bounds: entry(generation, "bounds"),
  vectors: entry(generation, "vectors"),
  content: entry(generation, "content", "txt"),
  metadata: entry(generation, "metadata", "txt"),
  offsets: entry(generation, "offsets"),
  blocks: entry(generation, "blocks"),
});
const formatSeven = {
  format: "lookup-knowledge/local-index",
  formatVersion: 7,
  generation: 2,
  id: "838eec2d0c8c21e3",
  committedAt: "2026-12-07T04:24:04.109Z",
  analyzer: { version: "lookup-knowledge-text/1" },
  blockBytes: 65536,
  blockHash: "xxh64",
  boundBlockPostings: 64,
  bm25: { k1: 0.9, b: 0.4 },
  embedder: { id: "hash", version: "1", dimension: 4 },
  vectors: { encoding: "int8", stride: 16 },
  chunks: 2,
  documents: 2,
  totalLength: 3,
  segments: [
    { chunks: 2, deleted: 1, terms: 3, postings: 3, totalLength: 3, files: segmentFiles(1) },
    { chunks: 1, deleted: 0, terms: 1, postings: 1, totalLength: 1, files: segmentFiles(2) },
  ],
  files: { facets: entry(2, "facets", "json"), deletes: entry(2, "deletes") },
  checksum: hash("f"),
};
const formatSix = {
  format: "lookup-knowledge/local-index",
  formatVersion: 6,
  generation: 3,
  id: "838eec2d0c8c21e3",
  committedAt: "2026-12-07T04:24:04.109Z",
  chunks: 3,
  documents: 2,
  terms: 4,
  postings: 5,
  totalLength: 6,
  analyzer: { version: "lookup-knowledge-text/1" },
  blockBytes: 65536,
  blockHash: "sha256",
  boundBlockPostings: 64,
  bm25: { k1: 0.9, b: 0.4 },
  embedder: null,
  vectors: null,
  files: { ...segmentFiles(3), vectors: undefined, facets: entry(3, "facets", "json") },
  checksum: hash("e"),
};
// Format 1: no id, a tokenizer instead of an analyser, no block checksums.
const formatOne = {
  format: "lookup-knowledge/local-index",
  formatVersion: 1,
  generation: 1,
  committedAt: "2025-01-01T00:00:00.000Z",
  chunks: 1,
  documents: 1,
  terms: 1,
  postings: 1,
  totalLength: 1,
  tokenizer: { version: "1", cjk: "bigram" },
  bm25: { k1: 1.2, b: 0.75 },
  embedder: { id: "offline", version: "2", dimension: 128 },
  vectors: { encoding: "int8", stride: 128 },
  files: {
    keys: { ...entry(1, "keys", "json"), name: "00000001.keys.json" },
    terms: { ...entry(1, "terms", "txt"), name: "00000001.terms.txt" },
    postings: { ...entry(1, "postings"), name: "00000001.postings.bin" },
    offsets: { ...entry(1, "offsets"), name: "00000001.offsets.bin" },
    content: { ...entry(1, "content", "txt"), name: "00000001.content.txt" },
    metadata: { ...entry(1, "metadata", "txt"), name: "00000001.metadata.txt" },
    vectors: { ...entry(1, "vectors"), name: "00000001.vectors.bin" },
  },
};

describe("issue 36 item 5: a manifest read without zod", () => {
  it("issue 36 item 5: format 7: the plain checks read a manifest as its schema does and accept nothing it refuses", () => {
    expectPlainMatchesSchema(formatSeven, readPlainSegmentedManifest, segmentedManifestSchema());
  });

  it("issue 36 item 5: formats 6 and 1: the plain checks read a manifest as its schema does and accept nothing it refuses", () => {
    expectPlainMatchesSchema(JSON.parse(JSON.stringify(formatSix)), readPlainIndexManifest, indexManifestSchema());
    expectPlainMatchesSchema(formatOne, readPlainIndexManifest, indexManifestSchema());
  });
});
