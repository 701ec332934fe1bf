import { deleteVectorStoreDocuments } from "./delete-vector-store-documents.js";
import { readVectorStoreSettings } from "./read-vector-store-settings.js";
import { searchVectorStore } from "./search-vector-store.js";
import { upsertVectorStoreRecords } from "./upsert-vector-store-records.js";
import type { VectorStoreSearchPort } from "./vector-store-search-port.js";
import type { VectorStoreSearchPortOptions } from "./vector-store-search-port-options.js";

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
 * (`idKey`; `read-vector-store-settings.ts`). The search is in `search-vector-store.ts`, the
 * writes in `upsert-vector-store-records.ts` and `delete-vector-store-documents.ts`.
 */
export function createVectorStoreSearchPort(options: VectorStoreSearchPortOptions): VectorStoreSearchPort {
  const settings = readVectorStoreSettings(options);
  return {
    search: (request) => searchVectorStore(settings, request),
    upsert: (records, writeOptions) => upsertVectorStoreRecords(settings, records, writeOptions),
    deleteDocuments: (docIds, writeOptions) => deleteVectorStoreDocuments(settings, docIds, writeOptions),
    profile: settings.profile,
  };
}
