import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { checksumBlockBytes } from "./format/block-checksums.js";
import { CorruptIndexError } from "./errors/corrupt-index-error.js";
import { build, directory, hashEmbeddings, ids, open, useIndexFolder } from "./test/local-port-test-fixtures.js";

useIndexFolder();

/** `count` records, each with one word of its own (`word<index>x`), about 200 bytes each. */
function manyRecords(count: number): KnowledgeRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `doc${index}#chunk-0`,
    content: `Record word${index}x of the shared handbook, padded with the same ordinary words so that every record fills a couple of hundred bytes of the content file on disk.`,
    metadata: { docId: `doc${index}`, chunkIndex: 0, title: `Record ${index}` },
  }));
}

function dataFile(suffix: string): string {
  return readdirSync(directory).find((name) => name.endsWith(suffix)) as string;
}

/** Flips the byte at `position` of a data file, keeping its size. */
function flip(name: string, position: number): void {
  const bytes = readFileSync(join(directory, name));
  bytes[position] = (bytes[position] ?? 0) ^ 0x01;
  writeFileSync(join(directory, name), bytes);
}

const corrupt = (name: string) => (error: unknown) => CorruptIndexError.isInstance(error) && error.message.includes(name);

describe("issue 14: a reader reads only what its searches touch (format 4)", () => {
  it("opens without checking the whole content file: a damaged block fails only the search that reads it", async () => {
    await (await build(manyRecords(3000))).close();
    const content = dataFile(".content.txt");
    const bytes = readFileSync(join(directory, content));
    expect(bytes.length).toBeGreaterThan(5 * checksumBlockBytes);
    // A byte inside the last record's own word, far from the first records' block.
    const damaged = bytes.lastIndexOf("word2999x");
    expect(damaged).toBeGreaterThan(3 * checksumBlockBytes);
    flip(content, damaged + 1);

    const reader = await open();
    expect(ids(await reader.search({ query: "word3x", topK: 1 }))).toEqual(["doc3#chunk-0"]);
    expect(ids(await reader.search({ query: "word1000x", topK: 1 }))).toEqual(["doc1000#chunk-0"]);
    await expect(reader.search({ query: "word2999x", topK: 1 })).rejects.toSatisfy(corrupt(content));
    // The damaged block stays refused; the others keep serving.
    await expect(reader.fetchRecords(["doc2999#chunk-0"])).rejects.toSatisfy(corrupt(content));
    expect(ids(await reader.search({ query: "word3x", topK: 1 }))).toEqual(["doc3#chunk-0"]);
    expect(reader.stats()).toMatchObject({ chunks: 3000, documents: 3000 });
  });

  it("reads the vectors on the first search that uses them, not at open", async () => {
    await (await build(manyRecords(50), { embeddings: hashEmbeddings() })).close();
    const vectors = dataFile(".vectors.bin");
    flip(vectors, 4 * 50 + 7);
    const lexical = await open({ embeddings: hashEmbeddings(), denseWeight: 0 });
    expect(ids(await lexical.search({ query: "word7x", topK: 1 }))).toEqual(["doc7#chunk-0"]);
    const hybrid = await open({ embeddings: hashEmbeddings() });
    expect(hybrid.stats().embedder).toMatchObject({ id: "test/hash" });
    await expect(hybrid.search({ query: "word7x", topK: 1 })).rejects.toSatisfy(corrupt(vectors));
  });
});
