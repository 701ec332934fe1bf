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

describe("issue 36 item 5: a process's first dense search streams the vectors", () => {
  it("over three segments, and gives the hits and scores of searches on the vectors read whole", async () => {
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
    const reader = await open({ embeddings });
    const [query, ...others] = queries;
    // The process's first dense search streams; the same search again reads the vectors whole.
    const firstSearch = await reader.search({ query: query as string, topK: 10 });
    expect(firstSearch.length).toBe(10);
    expect(await reader.search({ query: query as string, topK: 10 })).toEqual(firstSearch);
    // A second reader (another snapshot) does not stream: only a process's first scan does.
    const second = await open({ embeddings });
    expect(await second.search({ query: query as string, topK: 10 })).toEqual(firstSearch);
    for (const other of others)
      expect(await second.search({ query: other, topK: 10 })).toEqual(await reader.search({ query: other, topK: 10 }));
    expect(scans).toEqual([true, false, false, false, false, false, false]);
  });
});
