import type { MetadataFilter } from "@lookup-knowledge/core";
import type { DocumentInterface } from "@langchain/core/documents";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import type { VectorStoreScoreKind } from "./normalize-vector-store-score.js";

/**
 * What the adapter needs to know about one kind of LangChain vector store. The built-in
 * profiles (`vectorStoreProfiles`) cover `MemoryVectorStore`, `LibSQLVectorStore` and
 * `PineconeStore`; for another store, pass your own.
 */
export interface VectorStoreProfile {
  /** The store's `_vectorstoreType()`, for messages. */
  name: string;
  /** What the store's score means (see `VectorStoreScoreKind`), or a function giving 0..1. */
  score: VectorStoreScoreKind | ((raw: number) => number);
  /**
   * Turns a validated `MetadataFilter` into the store's filter, with the semantics of
   * `matchesFilter`. Returns `true` when every record passes (no filter is sent) and `false`
   * when none does (the store is not asked). Throws `VectorStorePortError`
   * (`unsupported_filter`) for what the store cannot express: a filter is never dropped.
   */
  translateFilter(filter: MetadataFilter, vectorStore: VectorStoreInterface): unknown;
  /**
   * How many candidates to ask the store for. Stores that filter after the nearest-neighbour
   * step (LibSQL) need more than `topK` to return `topK` matching records. Default: `topK`.
   */
  candidates?(vectorStore: VectorStoreInterface, topK: number, filtered: boolean): number | Promise<number>;
  /**
   * Runs the search instead of `similaritySearchWithScore`, for stores whose own query cannot
   * give the right answer (LibSQL: see `libsqlVectorStoreProfile`). Takes the translated filter.
   */
  search?(vectorStore: VectorStoreInterface, query: string, k: number, filter: unknown): Promise<Array<[DocumentInterface, number]>>;
  /** `addDocuments` with known ids replaces what is stored under them (no delete first). */
  replacesById?: boolean;
  /**
   * Removes the records with these ids. Default: find them with a filtered search on the id
   * key, then `delete({ ids })` with the ids the store reports.
   */
  removeRecords?(vectorStore: VectorStoreInterface, recordIds: readonly string[], idKey: string): Promise<void>;
  /**
   * Removes every chunk of these documents and says how many records went. Default: find them
   * with a filtered search on `docId` / `doc_id`, then `delete({ ids })`.
   */
  removeDocuments?(vectorStore: VectorStoreInterface, docIds: readonly string[]): Promise<number>;
}
