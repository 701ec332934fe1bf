import { throwIfAborted } from "../internal/abort.js";
import { requireArray } from "../internal/require-array.js";
import type { KnowledgeRecord } from "../knowledge-record.js";
import type { KnowledgeWriter } from "../knowledge-writer.js";
import { callPinecone } from "./call-pinecone.js";
import { forEachBounded } from "./for-each-bounded.js";
import { listPineconeChunkIds } from "./list-pinecone-chunk-ids.js";
import { namespaceOption } from "./parse-pinecone-response.js";
import { createPineconeDimensionCheck } from "./pinecone-dimension-check.js";
import { pineconeMetadata } from "./pinecone-metadata.js";
import type { PineconeSettings } from "./read-pinecone-settings.js";
import { upsertPineconeBatch } from "./upsert-pinecone-batch.js";
import type { PreparedPineconeRecord } from "./upsert-pinecone-batch.js";

const maxDeleteBatch = 1000;

/**
 * The writer of the Pinecone port: `upsert` in bounded, concurrent batches (embedded, with
 * lexical sparse values in hybrid mode, or as integrated records; `upsert-pinecone-batch.ts`),
 * the embedder's dimension checked against the index once, and `deleteDocuments` by listing
 * each document's chunk ids (`list-pinecone-chunk-ids.ts`).
 */
export function createPineconeWriter(settings: PineconeSettings): Pick<KnowledgeWriter, "upsert" | "deleteDocuments"> {
  const checkDimension = createPineconeDimensionCheck(settings);

  async function upsert(records: KnowledgeRecord[], options?: { signal?: AbortSignal }): Promise<void> {
    const signal = options?.signal;
    throwIfAborted(signal);
    requireArray(records, "upsert");
    const prepared = records.map((record): PreparedPineconeRecord => ({ record, metadata: pineconeMetadata(record, settings) }));
    if (prepared.length === 0) return;
    const batches: PreparedPineconeRecord[][] = [];
    for (let start = 0; start < prepared.length; start += settings.batchSize) {
      batches.push(prepared.slice(start, start + settings.batchSize));
    }
    await forEachBounded(batches, settings.concurrency, (batch) => upsertPineconeBatch(settings, batch, checkDimension, signal), signal);
  }

  async function deleteDocuments(docIds: string[], options?: { signal?: AbortSignal }): Promise<number> {
    const { index, namespace, policy } = settings;
    const signal = options?.signal;
    throwIfAborted(signal);
    requireArray(docIds, "deleteDocuments");
    const wanted = [...new Set(docIds.filter((docId): docId is string => typeof docId === "string" && docId !== ""))];
    let removed = 0;
    await forEachBounded(
      wanted,
      settings.concurrency,
      async (docId) => {
        const ids = await listPineconeChunkIds(settings, docId, signal);
        for (let start = 0; start < ids.length; start += maxDeleteBatch) {
          const batch = ids.slice(start, start + maxDeleteBatch);
          await callPinecone("deleteMany", () => index.deleteMany({ ids: batch, ...namespaceOption(namespace) }), policy, signal);
          removed += batch.length;
        }
      },
      signal,
    );
    return removed;
  }

  return { upsert, deleteDocuments };
}
