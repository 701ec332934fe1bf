import type { SearchHit } from "@lookup-knowledge/core";

/** A record read back by its id: what a search hit holds, without a score. */
export type FetchedRecord = Omit<SearchHit, "score" | "answerability"> & { id: string };

/**
 * A store that can read records back by their id (`knowledgeRecordId(docId, chunkIndex)` for
 * ingested chunks), so a caller can read a whole chunk and its neighbours after a lookup.
 * Optional: a port that cannot (a store with no fetch by id) does not implement it.
 */
export interface KnowledgeRecordReader {
  /**
   * The records with these ids, in the order asked: `undefined` for an id the store does not
   * hold. At most 100 ids a call.
   */
  fetchRecords(ids: readonly string[], options?: { signal?: AbortSignal }): Promise<Array<FetchedRecord | undefined>>;
}

/** Whether `port` can read records back by id. */
export function canFetchRecords<T extends object>(port: T): port is T & KnowledgeRecordReader {
  return typeof (port as Partial<KnowledgeRecordReader>).fetchRecords === "function";
}
