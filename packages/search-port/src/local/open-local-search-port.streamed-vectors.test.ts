import { readdirSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DenseMatrix, scanChunkRows } from "./dense/dense-matrix.js";
import { directory, hashEmbeddings, open, recordsFrom, useIndexFolder } from "./test/local-port-test-fixtures.js";

useIndexFolder();
afterEach(() => {
  vi.restoreAllMocks();
});

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
