import { readdirSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { DenseMatrix, scanChunkRows } from "./dense/dense-matrix.js";
import { directory, hashEmbeddings, open, useIndexFolder } from "./test/local-port-test-fixtures.js";

useIndexFolder();
afterEach(() => {
  vi.restoreAllMocks();
});

const topics = ["webhook secret rotation", "audit log access", "billing invoice export", "single sign on setup", "rate limit errors"];

/** `count` records from `first` on, each mixing two topics and a word of its own. */
function recordsFrom(first: number, count: number): KnowledgeRecord[] {
  return Array.from({ length: count }, (_, offset) => {
    const index = first + offset;
    return {
      id: `doc${index}#chunk-0`,
      content: `${topics[index % topics.length]} and ${topics[(index * 7) % topics.length]}, note ${index % 13} word${index}x`,
      metadata: { docId: `doc${index}`, chunkIndex: 0 },
    };
  });
}

/** Whether each dense scan of the search ran on a streamed matrix. */
function watchScans(): boolean[] {
  const streamed: boolean[] = [];
  const scan = DenseMatrix.prototype.scanInChunks;
  vi.spyOn(DenseMatrix.prototype, "scanInChunks").mockImplementation(function (this: DenseMatrix, ...parts) {
    streamed.push((this as unknown as { streamed?: unknown }).streamed !== undefined);
    return scan.apply(this, parts);
  });
  return streamed;
}

const queries = ["rotate the webhook secret", "export an invoice", "sso setup errors note 4"];

describe("issue 36 item 5: a reader's first dense search streams the vectors", () => {
  it("over three segments, gives the hits and scores that a search on the vectors read whole gives", async () => {
    const embeddings = hashEmbeddings();
    const writer = await open({ mode: "write", embeddings });
    // More rows than one scan chunk, in three commits (three segments).
    const sizes = [scanChunkRows, 1500, 2000];
    let first = 0;
    for (const size of sizes) {
      await writer.upsert(recordsFrom(first, size));
      await writer.commit();
      first += size;
    }
    await writer.close();
    expect(readdirSync(directory).filter((name) => name.endsWith(".vectors.bin")).length).toBe(3);

    const scans = watchScans();
    const results: Array<Array<{ id: string | undefined; score: number | undefined }>> = [];
    for (const query of queries) {
      // A fresh reader each time: this query is its first dense search.
      const reader = await open({ embeddings });
      const firstSearch = await reader.search({ query, topK: 10 });
      const laterSearch = await reader.search({ query, topK: 10 });
      expect(firstSearch.length).toBe(10);
      expect(laterSearch).toEqual(firstSearch);
      results.push(firstSearch.map(({ id, score }) => ({ id, score })));
    }
    // Each reader's first scan streamed, its second read the vectors whole.
    expect(scans).toEqual(queries.flatMap(() => [true, false]));
    // And one reader that asks them in turn (later searches on the whole matrix) agrees.
    const reader = await open({ embeddings });
    for (const [index, query] of queries.entries()) {
      const hits = await reader.search({ query, topK: 10 });
      expect(hits.map(({ id, score }) => ({ id, score }))).toEqual(results[index]);
    }
  });
});
