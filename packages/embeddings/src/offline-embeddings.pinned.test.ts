import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OfflineEmbeddings } from "./offline-embeddings.js";
import type { VectorArithmetic } from "./vector-arithmetic.js";

const knowledgeBase = fileURLToPath(new URL("../../../examples/knowledge-base", import.meta.url));

/** Every Markdown file of the example knowledge base (English and Chinese), in path order. */
function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return markdownFiles(path);
      return entry.name.endsWith(".md") ? [path] : [];
    });
}

/**
 * Texts of every kind the embedder meets: whole documents, their paragraphs (short texts,
 * headings, code, tables, Chinese), and the edge cases (nothing to embed, repeats, a word too
 * long to cache, words the table does not hold).
 */
const documents = markdownFiles(knowledgeBase).map((path) => readFileSync(path, "utf8"));
const texts = [
  ...documents,
  ...documents.flatMap((document) => document.split(/\n\s*\n/)),
  "",
  "!!! ???",
  "limit limit limit the rate",
  `rate limits ${"q".repeat(200)} per consumer`,
  "zxqv wvpk 12345 3.14159 x_y_z",
  "网关限流 rate limit 插件 限流 限流",
];

function digest(vectors: ArrayLike<number>[], Type: Float64ArrayConstructor | Float32ArrayConstructor): string {
  const hash = createHash("sha256");
  for (const vector of vectors) hash.update(new Uint8Array(Type.from(vector).buffer));
  return hash.digest("hex");
}

/**
 * The SHA-256 of every value (float64 for `number[]`, float32 for rows) of the vectors of
 * `texts`, taken at commit 39d8b79, before the hot loop was rewritten for speed (issue 36 item 6):
 * vectors must not change bit for bit unless the method version changes.
 */
const pinned = {
  texts: 696,
  documents: "e67bdf0d4a53da571ff5e8426f79fe20c0e6422c9bd9bbd081a8e461c1ba4ed6",
  rows: "15185ccab560047d079582ff81eeba1dd65697e39dba2e4e69a7c2631b20d916",
  queries: "58f135fd65110d8418fc9210488205d8d332a88a486ff3c04207ea19d45ed07e",
};

/** The digests of the vectors of `texts` from the embedders `create` makes (a new one for the rows). */
async function digests(create: () => OfflineEmbeddings): Promise<typeof pinned> {
  const embeddings = create();
  const queries: number[][] = [];
  for (const text of texts) queries.push(await embeddings.embedQuery(text));
  return {
    texts: texts.length,
    documents: digest(await embeddings.embedDocuments(texts), Float64Array),
    rows: digest(await create().embedDocumentRows(texts), Float32Array),
    queries: digest(queries, Float64Array),
  };
}

/** The runtime's WebAssembly API (the tests' types have no DOM library). */
const webAssembly = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number }) => unknown } }).WebAssembly;

afterEach(() => vi.restoreAllMocks());

describe("issue 36 item 6: the offline embedder's vectors, bit for bit", () => {
  it("gives the same document vectors, typed rows and query vectors as before the speed-ups", async () => {
    expect(await digests(() => new OfflineEmbeddings())).toEqual(pinned);
  });

  it("gives them too where the runtime refuses the WebAssembly kernel its memory (the JavaScript loops)", async () => {
    // What Node 20 throws short of address space (under `ulimit -v`).
    vi.spyOn(webAssembly, "Memory").mockImplementation(function refuse(): never {
      throw new RangeError("WebAssembly.Memory(): could not allocate memory");
    });
    const made: OfflineEmbeddings[] = [];
    const create = () => {
      const embeddings = new OfflineEmbeddings();
      made.push(embeddings);
      return embeddings;
    };
    expect(await digests(create)).toEqual(pinned);
    expect(made.map((embeddings) => (embeddings as unknown as { arithmetic: VectorArithmetic }).arithmetic.onKernel)).toEqual([
      false,
      false,
    ]);
  });
});
