import { errorMessage } from "@lookup-knowledge/core";
import type { MetadataFilter, SearchHit } from "@lookup-knowledge/core";
import type { DocumentInterface } from "@langchain/core/documents";
import { raceWithAbort, throwIfAborted } from "../internal/abort.js";
import { requireArray } from "../internal/require-array.js";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { matchesFilter } from "../matches-filter.js";
import type { SearchRequest } from "../search-request.js";
import { readSearchRequest } from "../internal/read-search-request.js";
import { normalizeVectorStoreScore } from "./normalize-vector-store-score.js";
import { readVectorStoreSettings } from "./read-vector-store-settings.js";
import { VectorStorePortError } from "./vector-store-port-error.js";
import type { VectorStoreSearchPort } from "./vector-store-search-port.js";
import type { VectorStoreSearchPortOptions } from "./vector-store-search-port-options.js";

/** Records found and removed per round of a filtered removal. */
const removalPage = 500;
const maxRemovalRounds = 1000;
/** The text of the searches that find records to remove; only the filter matters. */
const removalProbe = "lookup-knowledge record";

/**
 * A `KnowledgeSearchPort` (R13) and `KnowledgeWriter` over any LangChain `VectorStore`.
 *
 * - Search: `similaritySearchWithScore(query, k, filter)` with the filter validated
 *   (`validateMetadataFilter`) and translated by the store's profile (function filters for
 *   `MemoryVectorStore`, SQL for `LibSQLVectorStore`, Pinecone filters for `PineconeStore`).
 *   A filter the store cannot express is refused (`unsupported_filter`), never dropped; a
 *   returned document the filter excludes fails the search (`filter_not_honoured`). Scores
 *   are normalised by the profile's score kind to 0..1 (higher is better), best first, ties
 *   by id, at most `topK`.
 * - Write: `addDocuments` with each record's id (as `Document.id`, the `ids` option, and the
 *   `idKey` metadata entry); an upsert first removes what is stored under the same ids unless
 *   the store replaces by id; `deleteDocuments` removes every chunk of the documents.
 *
 * The store's type comes from `vectorStore._vectorstoreType()`; a store without a built-in
 * profile needs `profile`. Bad options throw `ConfigurationError` naming the option
 * (`idKey`; `read-vector-store-settings.ts`).
 */
export function createVectorStoreSearchPort(options: VectorStoreSearchPortOptions): VectorStoreSearchPort {
  const { vectorStore, profile, idKey, batchSize } = readVectorStoreSettings(options);
  const scoreKind = profile.score;
  const normalize = typeof scoreKind === "function" ? scoreKind : (raw: number) => normalizeVectorStoreScore(raw, scoreKind);

  const fail = (operation: string, error: unknown): never => {
    if (VectorStorePortError.isInstance(error)) throw error;
    throw new VectorStorePortError({
      code: "vector_store_failed",
      store: profile.name,
      operation,
      message: `${profile.name} vector store failed in ${operation}: ${errorMessage(error)}`,
      cause: error,
    });
  };

  async function search(request: SearchRequest): Promise<SearchHit[]> {
    const signal = request.signal;
    throwIfAborted(signal);
    const { filter, topK, query } = readSearchRequest(request);
    if (topK === 0) return [];
    const translated = filter === undefined ? true : profile.translateFilter(filter, vectorStore);
    if (translated === false) return [];
    const results = await raceWithAbort(
      (async () => {
        const k = profile.candidates === undefined ? topK : await profile.candidates(vectorStore, topK, translated !== true);
        return storeSearch(query, k, translated);
      })().catch((error: unknown) => fail("similaritySearchWithScore", error)),
      signal,
    );
    const hits = results.map(([document, raw]) => toHit(document, raw));
    for (const hit of hits) assertHonoured(hit.metadata, hit.id, filter, "similaritySearchWithScore");
    hits.sort((left, right) => (right.score ?? 0) - (left.score ?? 0) || compareIds(left.id ?? "", right.id ?? ""));
    return hits.slice(0, topK);
  }

  /** The profile's search, or the store's `similaritySearchWithScore`. */
  function storeSearch(query: string, k: number, translated: unknown): Promise<Array<[DocumentInterface, number]>> {
    const filter = translated === true ? undefined : translated;
    if (profile.search !== undefined) return profile.search(vectorStore, query, k, filter);
    return vectorStore.similaritySearchWithScore(query, k, filter as never);
  }

  function toHit(document: DocumentInterface, raw: number): SearchHit {
    const { [idKey]: recordId, ...metadata } = document.metadata ?? {};
    const id = typeof recordId === "string" ? recordId : document.id;
    const score = normalize(raw);
    return {
      ...(id === undefined ? {} : { id }),
      content: typeof document.pageContent === "string" ? document.pageContent : "",
      metadata,
      score: Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0,
    };
  }

  function assertHonoured(
    metadata: Record<string, unknown>,
    id: string | undefined,
    filter: MetadataFilter | undefined,
    operation: string,
  ): void {
    if (filter === undefined || matchesFilter(metadata, filter)) return;
    throw new VectorStorePortError({
      code: "filter_not_honoured",
      store: profile.name,
      operation,
      message: `${profile.name} vector store returned ${JSON.stringify(id)}, which the filter ${JSON.stringify(filter)} excludes; refusing to pass it on`,
    });
  }

  async function upsert(records: KnowledgeRecord[], options?: { signal?: AbortSignal }): Promise<void> {
    const signal = options?.signal;
    throwIfAborted(signal);
    requireArray(records, "upsert");
    for (const record of records) checkRecord(record);
    const latest = new Map(records.map((record) => [record.id, record]));
    const unique = [...latest.values()];
    if (unique.length === 0) return;
    if (profile.replacesById !== true) {
      await raceWithAbort(removeRecords(unique.map((record) => record.id)), signal);
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
          .catch((error: unknown) => fail("addDocuments", error)),
        signal,
      );
    }
  }

  function checkRecord(record: KnowledgeRecord): void {
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
    if (record.metadata === null || typeof record.metadata !== "object" || Array.isArray(record.metadata))
      refuse("needs a metadata object");
    if (idKey in record.metadata && record.metadata[idKey] !== record.id)
      refuse(`holds metadata.${idKey}, the key the adapter keeps the id under`);
  }

  async function removeRecords(recordIds: string[]): Promise<void> {
    if (profile.removeRecords !== undefined) {
      await profile.removeRecords(vectorStore, recordIds, idKey);
      return;
    }
    for (let start = 0; start < recordIds.length; start += removalPage) {
      await removeMatching({ [idKey]: { $in: recordIds.slice(start, start + removalPage) } }, "upsert");
    }
  }

  async function deleteDocuments(docIds: string[], options?: { signal?: AbortSignal }): Promise<number> {
    const signal = options?.signal;
    throwIfAborted(signal);
    requireArray(docIds, "deleteDocuments");
    const wanted = [...new Set(docIds.filter((docId): docId is string => typeof docId === "string" && docId !== ""))];
    if (wanted.length === 0) return 0;
    if (profile.removeDocuments !== undefined) {
      return raceWithAbort(profile.removeDocuments(vectorStore, wanted), signal);
    }
    let removed = 0;
    for (let start = 0; start < wanted.length; start += removalPage) {
      const part = wanted.slice(start, start + removalPage);
      removed += await raceWithAbort(
        removeMatching({ $or: [{ docId: { $in: part } }, { doc_id: { $in: part } }] }, "deleteDocuments"),
        signal,
      );
    }
    return removed;
  }

  /** Finds the stored documents `filter` selects (a filtered search) and deletes them by the store's ids, until none is left. */
  async function removeMatching(filter: MetadataFilter, operation: string): Promise<number> {
    if (typeof vectorStore.delete !== "function") {
      throw new VectorStorePortError({
        code: "vector_store_failed",
        store: profile.name,
        operation,
        message: `${profile.name} vector store has no delete; give the profile removeRecords and removeDocuments`,
      });
    }
    const translated = profile.translateFilter(filter, vectorStore);
    if (translated === false) return 0;
    let removed = 0;
    for (let round = 0; round < maxRemovalRounds; round += 1) {
      const k = profile.candidates === undefined ? removalPage : await profile.candidates(vectorStore, removalPage, true);
      const found = (await storeSearch(removalProbe, k, translated).catch((error: unknown) => fail("similaritySearch", error))).map(
        ([document]) => document,
      );
      if (found.length === 0) return removed;
      const ids: string[] = [];
      for (const document of found) {
        assertHonoured(document.metadata ?? {}, document.id, filter, operation);
        if (typeof document.id !== "string") {
          throw new VectorStorePortError({
            code: "vector_store_failed",
            store: profile.name,
            operation,
            message: `${profile.name} vector store returns documents without ids, so they cannot be deleted; give the profile removeRecords and removeDocuments`,
          });
        }
        ids.push(document.id);
      }
      await vectorStore.delete({ ids }).catch((error: unknown) => fail("delete", error));
      removed += ids.length;
    }
    throw new VectorStorePortError({
      code: "vector_store_failed",
      store: profile.name,
      operation,
      message: `${profile.name} vector store still returns deleted documents after ${maxRemovalRounds} rounds`,
    });
  }

  return { search, upsert, deleteDocuments, profile };
}

function compareIds(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
