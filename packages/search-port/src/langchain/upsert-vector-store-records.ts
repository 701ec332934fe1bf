import type { DocumentInterface } from "@langchain/core/documents";
import { raceWithAbort, throwIfAborted } from "../internal/abort.js";
import { requireArray } from "../internal/require-array.js";
import type { KnowledgeRecord } from "../knowledge-record.js";
import type { VectorStoreSettings } from "./read-vector-store-settings.js";
import { removalPage, removeMatchingDocuments } from "./remove-matching-documents.js";
import { vectorStoreCallFailed } from "./vector-store-call-failed.js";
import { VectorStorePortError } from "./vector-store-port-error.js";

/**
 * The `upsert` of the VectorStore port: the records checked, the last one of each id kept,
 * what is stored under their ids removed first (unless the store replaces by id), then
 * `addDocuments` in batches of `batchSize`, each record's id as `Document.id`, in the `ids`
 * option and under `idKey` in the metadata.
 */
export async function upsertVectorStoreRecords(
  settings: VectorStoreSettings,
  records: KnowledgeRecord[],
  options?: { signal?: AbortSignal },
): Promise<void> {
  const { profile, vectorStore, idKey, batchSize } = settings;
  const signal = options?.signal;
  throwIfAborted(signal);
  requireArray(records, "upsert");
  for (const record of records) checkRecord(settings, record);
  const latest = new Map(records.map((record) => [record.id, record]));
  const unique = [...latest.values()];
  if (unique.length === 0) return;
  if (profile.replacesById !== true) {
    await raceWithAbort(
      removeRecords(
        settings,
        unique.map((record) => record.id),
      ),
      signal,
    );
  }
  for (let start = 0; start < unique.length; start += batchSize) {
    throwIfAborted(signal);
    const batch = unique.slice(start, start + batchSize);
    const documents: DocumentInterface[] = batch.map((record) => ({
      id: record.id,
      pageContent: record.content,
      metadata: { ...structuredClone(record.metadata), [idKey]: record.id },
    }));
    await raceWithAbort(
      vectorStore
        .addDocuments(documents, { ids: batch.map((record) => record.id) })
        .catch((error: unknown) => vectorStoreCallFailed(profile, "addDocuments", error)),
      signal,
    );
  }
}

function checkRecord(settings: VectorStoreSettings, record: KnowledgeRecord): void {
  const { profile, idKey } = settings;
  const refuse = (reason: string): never => {
    throw new VectorStorePortError({
      code: "invalid_record",
      store: profile.name,
      operation: "upsert",
      message: `Record ${JSON.stringify(record?.id)} ${reason}`,
    });
  };
  if (record === null || typeof record !== "object") refuse("is not a record");
  if (typeof record.id !== "string" || record.id === "") refuse("needs a non-empty string id");
  if (typeof record.content !== "string") refuse("needs string content");
  if (record.metadata === null || typeof record.metadata !== "object" || Array.isArray(record.metadata)) refuse("needs a metadata object");
  if (idKey in record.metadata && record.metadata[idKey] !== record.id)
    refuse(`holds metadata.${idKey}, the key the adapter keeps the id under`);
}

/** Removes the records stored under these ids: the profile's way, or a filtered search on the id key and `delete`. */
async function removeRecords(settings: VectorStoreSettings, recordIds: string[]): Promise<void> {
  const { profile, vectorStore, idKey } = settings;
  if (profile.removeRecords !== undefined) {
    await profile.removeRecords(vectorStore, recordIds, idKey);
    return;
  }
  for (let start = 0; start < recordIds.length; start += removalPage) {
    await removeMatchingDocuments(settings, { [idKey]: { $in: recordIds.slice(start, start + removalPage) } }, "upsert");
  }
}
