import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { openLocalSearchPort } from "./open-local-search-port.js";

// A commit folds the removed and added records into new postings. Up to 64 removed slots
// take one copy path, more take another; both must give the index a fresh build gives.

const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"];

function record(index: number, round: number): KnowledgeRecord {
  const content = `${words[(index + round) % 10]} ${words[(index * 3 + 1) % 10]} item${index} round${round}`;
  return { id: `doc${index}#chunk-0`, content, metadata: { docId: `doc${index}`, chunkIndex: 0 } };
}

describe("local port: commits that replace or delete many records", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "local-port-rewrite-"));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  async function write(directory: string, upserts: KnowledgeRecord[], deletes: string[] = []): Promise<void> {
    const port = await openLocalSearchPort({ directory, mode: "write" });
    for (let start = 0; start < upserts.length; start += 128) await port.upsert(upserts.slice(start, start + 128));
    if (deletes.length > 0) await port.deleteDocuments(deletes);
    await port.commit();
    await port.close();
  }

  async function ranked(directory: string, query: string) {
    const port = await openLocalSearchPort({ directory, minScore: 0 });
    try {
      return (await port.search({ query, topK: 20 })).map((hit) => ({
        id: hit.id,
        content: hit.content,
        score: Number((hit.score ?? -1).toFixed(9)),
      }));
    } finally {
      await port.close();
    }
  }

  const cases: Array<[replaced: number, deleted: number]> = [
    [20, 10],
    [54, 10],
    [55, 10],
    [10, 70],
    [300, 70],
    [600, 70],
  ];
  for (const [changed, deletedCount] of cases) {
    it(`after ${changed} of 600 records are replaced and ${deletedCount} deleted, search matches a fresh build`, async () => {
      const incremental = join(root, "incremental");
      const fresh = join(root, "fresh");
      const initial = Array.from({ length: 600 }, (_, index) => record(index, 0));
      await write(incremental, initial);
      const replaced = Array.from({ length: changed }, (_, index) => record((index * 7) % 600, 1));
      const deleted = Array.from({ length: deletedCount }, (_, index) => `doc${(index * 11 + 3) % 600}`);
      await write(incremental, replaced, deleted);

      const final = new Map(initial.map((entry) => [entry.id, entry]));
      for (const entry of replaced) final.set(entry.id, entry);
      for (const docId of deleted) final.delete(`${docId}#chunk-0`);
      await write(fresh, [...final.values()]);

      for (const query of ["item7 zeta", "alpha round1", "theta item300 kappa", "round0 beta"]) {
        expect(await ranked(incremental, query)).toEqual(await ranked(fresh, query));
      }
      // A record that never held a word is never found by it.
      const hits = await ranked(incremental, "item7");
      expect(hits.map((hit) => hit.id)).toEqual(["doc7#chunk-0"]);
    });
  }
});
