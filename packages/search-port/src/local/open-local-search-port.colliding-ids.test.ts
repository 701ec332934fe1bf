import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { readManifest } from "./format/read-manifest.js";
import { openLocalSearchPortWithHooks } from "./open-local-search-port.js";
import { hashText } from "./snapshot/hash-text.js";
import { directory, hashEmbeddings, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { random } from "./test/seeded-random-test-fixtures.js";

useIndexFolder();

/** `pairs` pairs of ids `prefix<n>` whose 32-bit lookup hashes are the same (a birthday search). */
function colliding(prefix: string, pairs: number): string[] {
  const seen = new Map<number, string>();
  const out: string[] = [];
  for (let index = 0; out.length < 2 * pairs; index += 1) {
    const id = `${prefix}${index}`;
    const hash = hashText(id, 0);
    const other = seen.get(hash);
    if (other !== undefined) {
      out.push(other, id);
      seen.delete(hash);
    } else seen.set(hash, id);
  }
  return out;
}

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

describe("issue 36 (writer memory, review): lookups by hash through the port", () => {
  it("record ids and document ids that share a lookup hash: an upsert replaces its own id only, deleteDocuments takes its own records only, through flushes, merges, optimize, deletes and reopens", async () => {
    const ids = colliding("r-", 20);
    const docs = colliding("d-", 5);
    const next = random(77);
    // Merges of a few small segments at each commit, so records move between segments often.
    const policy = { segmentsPerLevel: 2, floorRecords: 3, maxMergedRecords: 1000, deletedShare: 0.2 };
    const openWriter = () =>
      openLocalSearchPortWithHooks(
        { directory, mode: "write", minScore: 0, embeddings: hashEmbeddings() },
        { flushRecords: 5, mergePolicy: policy },
      );
    let writer = await openWriter();
    const model = new Map<string, KnowledgeRecord>();
    let version = 0;
    for (let step = 0; step < 150; step += 1) {
      const batch = new Map<string, KnowledgeRecord>();
      for (let count = 1 + Math.floor(8 * next()); count > 0; count -= 1) {
        const id = ids[Math.floor(ids.length * next())] as string;
        version += 1;
        const pick = Math.floor((docs.length + 2) * next());
        const docId = pick >= docs.length ? undefined : docs[pick];
        batch.set(id, {
          id,
          content: `version ${version} term${version % 7}`,
          metadata: docId === undefined ? { version } : { docId, version },
        });
      }
      await writer.upsert([...batch.values()]);
      for (const record of batch.values()) model.set(record.id, record);
      const roll = next();
      if (roll < 0.1) {
        const docId = docs[Math.floor(docs.length * next())] as string;
        let expected = 0;
        for (const [id, record] of model)
          if (record.metadata.docId === docId) {
            model.delete(id);
            expected += 1;
          }
        expect(await writer.deleteDocuments([docId]), `step ${step} delete`).toBe(expected);
      } else if (roll < 0.2) {
        await writer.search({ query: "term3", topK: 3 });
      } else if (roll < 0.3) {
        await writer.commit();
        expect(readManifest(directory)?.documents, `step ${step}`).toBe(documentsOf(model.values()));
        expect(readManifest(directory)?.chunks, `step ${step}`).toBe(model.size);
      } else if (roll < 0.36) {
        await writer.optimize();
        expect(readManifest(directory)?.documents, `step ${step}`).toBe(documentsOf(model.values()));
        expect(readManifest(directory)?.chunks, `step ${step}`).toBe(model.size);
      } else if (roll < 0.42) {
        await writer.commit();
        await writer.close();
        writer = await openWriter();
      }
      expect(writer.stats().chunks, `step ${step}`).toBe(model.size);
      if (step % 10 === 0) {
        const fetched = await writer.fetchRecords(ids);
        expect(
          fetched.map((r) => r?.content),
          `step ${step}`,
        ).toEqual(ids.map((id) => model.get(id)?.content));
      }
    }
    await writer.commit();
    expect(readManifest(directory)?.documents).toBe(documentsOf(model.values()));
    const fetched = await writer.fetchRecords(ids);
    expect(fetched.map((r) => r?.content)).toEqual(ids.map((id) => model.get(id)?.content));
    await writer.close();
  });
});
