import { lexicalTerms } from "@lookup-knowledge/text";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { parallelScanRows } from "./dense/dense-matrix.js";
import { acquireDenseScanHelper, allowDenseScanHelper, denseScanHelper, helperChunkCount } from "./dense/dense-scan-helper.js";
import { build, directory, hashEmbeddings, open, opened, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { openCommittedIndex } from "./reader/open-committed-index.js";
import { readLocalPortSettings } from "./port/read-local-port-settings.js";
import { searchSnapshot } from "./reader/search-snapshot.js";
import { random } from "./test/seeded-random-test-fixtures.js";

useIndexFolder();

const embeddings = hashEmbeddings({ dimension: 256 });

/** Enough seeded records for the parallel scan, with few words (many equal scores) and a group to filter on. */
function corpus(seed: number): { records: KnowledgeRecord[]; queries: string[] } {
  const next = random(seed);
  const word = () => `w${Math.floor(next() ** 2 * 300)}`;
  const records: KnowledgeRecord[] = Array.from({ length: parallelScanRows + 2500 }, (_, index) => ({
    id: `r${String(index).padStart(6, "0")}#chunk-0`,
    content: Array.from({ length: 2 + Math.floor(next() * 6) }, word).join(" "),
    metadata: { docId: `r${index}`, chunkIndex: 0, group: index % 3 === 0 ? "a" : "b" },
  }));
  const queries = Array.from({ length: 12 }, () => Array.from({ length: 1 + Math.floor(next() * 4) }, word).join(" "));
  return { records, queries };
}

describe("issue 14: searches through a port with the dense scan split over two threads", () => {
  it("give exactly the hits, scores, order and signals of one thread (hybrid, dense only, filtered), and the helper ends with the port", async () => {
    const { records, queries } = corpus(1414);
    await (await build(records, { embeddings })).close();
    const before = helperChunkCount();
    for (const settings of [{}, { denseWeight: 1, denseFloor: 0 }]) {
      const reader = await open({ embeddings, minScore: 0, ...settings });
      for (const query of queries) {
        for (const request of [
          { query, topK: 10 },
          { query, topK: 1 },
          { query, topK: 40, filter: { group: "a" } },
        ]) {
          allowDenseScanHelper(false);
          const alone = await reader.search(request);
          allowDenseScanHelper(true);
          // Twice: the first search starts the worker, the second finds it awake.
          expect(await reader.search(request), `${query} ${JSON.stringify(settings)}`).toEqual(alone);
          expect(await reader.search(request)).toEqual(alone);
        }
      }
      const helper = denseScanHelper();
      expect(helper?.usable).toBe(true);
      await reader.close();
      opened.splice(opened.indexOf(reader), 1);
      // The port was the last holder: its close ends the worker.
      await helper?.exited;
      expect(denseScanHelper()).toBeUndefined();
    }
    expect(helperChunkCount()).toBeGreaterThan(before);
  }, 120_000);

  it("leave the lexical scratch clean when a search fails in the middle of the fused pass, so the next search is exact", async () => {
    const { records, queries } = corpus(77);
    await (await build(records, { embeddings })).close();
    const committed = openCommittedIndex(readLocalPortSettings({ directory, embeddings, mode: "read" }));
    const snapshot = committed?.snapshot;
    if (snapshot === undefined) throw new Error("no committed index");
    const release = acquireDenseScanHelper();
    try {
      for (const text of queries.slice(0, 4)) {
        const query = { terms: lexicalTerms(text), vector: await embeddings.embedQuery(text), denseWeight: 0.3, topK: 10 };
        const expected = searchSnapshot(snapshot, query, 0.3);
        let asked = 0;
        const failing = () => {
          asked += 1;
          if (asked > 3) throw new Error("filter failed");
          return true;
        };
        expect(() => searchSnapshot(snapshot, { ...query, accepts: failing }, 0.3)).toThrow("filter failed");
        expect(snapshot.vectors?.lexicalScratch().every((score) => score === 0)).toBe(true);
        expect(searchSnapshot(snapshot, query, 0.3)).toEqual(expected);
      }
    } finally {
      release();
      snapshot.records.file?.close();
    }
  }, 120_000);
});
