import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { openLocalSearchPort, openLocalSearchPortWithHooks } from "./open-local-search-port.js";
import type { LocalSearchPort } from "./port/local-search-port.js";
import { RecordLocations } from "./snapshot/record-locations.js";
import { directory, opened, useIndexFolder } from "./test/local-port-test-fixtures.js";

useIndexFolder();
afterEach(() => vi.restoreAllMocks());

const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];

/** Record `index` of document `doc-<index / 2>`, its words chosen from its index (`version` changes them). */
function record(index: number, version = 1): KnowledgeRecord {
  const text = [words[index % 8], words[(index >> 3) % 8], words[(index * version) % 7], `n${index % 97}`].join(" ");
  return { id: `r${index}`, content: `${text} v${version}`, metadata: { docId: `doc-${index >> 1}`, chunkIndex: index % 2 } };
}

async function answers(port: LocalSearchPort) {
  const hits = [];
  for (const query of ["alpha bravo", "n5 golf", "v2 charlie", "hotel n96"]) {
    hits.push((await port.search({ query, topK: 10 })).map((hit) => [hit.id, hit.score]));
  }
  const { chunks, documents } = port.stats();
  return { hits, chunks, documents, fetched: await port.fetchRecords(["r1", "r4", "r70001", "r89999", "r90000"]) };
}

describe("a commit that merges most of a writer's records (issue 36: the build's peak memory)", () => {
  it("issue 36 item 3: lets go of the table of where records are before its merges, and finds every record again after them", async () => {
    const letGo: boolean[] = [];
    const rebuildsWithout = RecordLocations.prototype.rebuildsWithout;
    vi.spyOn(RecordLocations.prototype, "rebuildsWithout").mockImplementation(function (this: RecordLocations, leaving) {
      const answer = rebuildsWithout.call(this, leaving);
      letGo.push(answer);
      return answer;
    });
    const writer = await openLocalSearchPortWithHooks({ directory, mode: "write", minScore: 0 }, { flushRecords: 10_000 });
    opened.push(writer);
    const all = new Map<string, KnowledgeRecord>();
    for (let start = 0; start < 90_000; start += 5_000) {
      const batch = Array.from({ length: 5_000 }, (_, offset) => record(start + offset));
      for (const each of batch) all.set(each.id, each);
      await writer.upsert(batch);
    }
    await writer.optimize();
    // The merge folds every flushed segment: the table (90,000 ids) would be built again, so it went first.
    expect(letGo).toContain(true);
    // After the merge, replacements and deletions still find the records they change.
    const changed = Array.from({ length: 300 }, (_, step) => record(step * 301, 2));
    for (const each of changed) all.set(each.id, each);
    await writer.upsert([...changed, record(90_000)]);
    all.set("r90000", record(90_000));
    await writer.deleteDocuments(["doc-2", "doc-35000"]);
    for (const id of ["r4", "r5", "r70000", "r70001"]) all.delete(id);
    await writer.commit();
    const mine = await answers(writer);
    expect(mine.chunks).toBe(all.size);
    const elsewhere = mkdtempSync(join(tmpdir(), "local-port-merge-memory-"));
    try {
      const fresh = await openLocalSearchPort({ directory: elsewhere, mode: "write", minScore: 0 });
      await fresh.upsert([...all.values()]);
      await fresh.commit();
      expect(mine).toEqual(await answers(fresh));
      await fresh.close();
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    const reader = await openLocalSearchPort({ directory, minScore: 0 });
    opened.push(reader);
    expect((await answers(reader)).hits).toEqual(mine.hits);
  }, 120_000);
});
