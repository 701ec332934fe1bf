import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { readManifest } from "./format/read-manifest.js";
import { openLocalSearchPort, openLocalSearchPortWithHooks } from "./open-local-search-port.js";
import { directory, hashEmbeddings, opened, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { random } from "./test/seeded-random-test-fixtures.js";

useIndexFolder();

/** Distinct documents among `records` (a record without a document id is one of its own). */
function documentsOf(records: Iterable<KnowledgeRecord>): number {
  const documents = new Set<string>();
  let loose = 0;
  for (const record of records) {
    const docId = record.metadata.docId;
    if (typeof docId === "string") documents.add(docId);
    else loose += 1;
  }
  return documents.size + loose;
}

describe("issue 36 (writer memory): record ids looked up per segment, documents counted without a map of every id", () => {
  it("a long build of small flushes replaces records upserted again in any earlier segment, and counts documents right at every commit", async () => {
    const next = random(3641);
    const hooks = { flushRecords: 7 };
    const openWriter = () => openLocalSearchPortWithHooks({ directory, mode: "write", minScore: 0, embeddings: hashEmbeddings() }, hooks);
    let writer = await openWriter();
    /** The live records, by id. */
    const model = new Map<string, KnowledgeRecord>();
    let version = 0;
    let commits = 0;
    for (let step = 0; step < 120; step += 1) {
      // A batch of 1 to 12 records, ids from a pool of 90 (so most come again, in another
      // segment or the same one), a few without a document.
      const batch: KnowledgeRecord[] = [];
      for (let count = 1 + Math.floor(12 * next()); count > 0; count -= 1) {
        const number = Math.floor(90 * next());
        version += 1;
        const docId = number % 10 === 9 ? undefined : `doc${number % 25}`;
        batch.push({
          id: `record-${number}`,
          content: `version ${version} of record ${number} term${number % 17}`,
          metadata: docId === undefined ? { version } : { docId, version },
        });
      }
      await writer.upsert(batch);
      for (const record of batch) model.set(record.id, record);
      const roll = next();
      if (roll < 0.08) {
        const docId = `doc${Math.floor(25 * next())}`;
        await writer.deleteDocuments([docId]);
        for (const [id, record] of model) if (record.metadata.docId === docId) model.delete(id);
      } else if (roll < 0.16) {
        // A search folds the pending records into the segment held in memory.
        await writer.search({ query: "record term3", topK: 3 });
      } else if (roll < 0.26) {
        await writer.commit();
        commits += 1;
        const manifest = readManifest(directory);
        expect(manifest?.chunks, `step ${step}`).toBe(model.size);
        expect(manifest?.documents, `step ${step}`).toBe(documentsOf(model.values()));
        if (next() < 0.3) {
          await writer.close();
          writer = await openWriter();
        }
      }
      expect(writer.stats().chunks, `step ${step}`).toBe(model.size);
    }
    await writer.commit();
    await writer.close();
    expect(commits).toBeGreaterThan(5);
    const reader = await openLocalSearchPort({ directory, minScore: 0, embeddings: hashEmbeddings() });
    opened.push(reader);
    const manifest = readManifest(directory);
    expect(manifest?.chunks).toBe(model.size);
    expect(manifest?.documents).toBe(documentsOf(model.values()));
    const ids = Array.from({ length: 90 }, (_, number) => `record-${number}`);
    const fetched = await reader.fetchRecords(ids);
    expect(fetched.map((record) => record?.content)).toEqual(ids.map((id) => model.get(id)?.content));
    expect(fetched.filter((record) => record !== undefined).length).toBe(model.size);
  });
});
