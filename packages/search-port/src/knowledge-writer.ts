import type { KnowledgeRecord } from "./knowledge-record.js";

/**
 * The write side of a store, used by ingestion. `upsert` replaces records with the same
 * id; `deleteDocuments` removes every chunk of the given documents and says how many
 * records went. Ingest replaces a changed document by deleting it, then upserting its new
 * chunks, so a document that shrank leaves no stale chunk behind.
 */
export interface KnowledgeWriter {
  upsert(records: KnowledgeRecord[], options?: { signal?: AbortSignal }): Promise<void>;
  deleteDocuments(docIds: string[], options?: { signal?: AbortSignal }): Promise<number>;
  /**
   * Makes the writes so far durable, for stores that stage them (the embedded index).
   * Ingest calls it before it records what it wrote, so a crash never leaves a record of
   * writes that were lost.
   */
  commit?(): Promise<void>;
  /**
   * A hint that these records are about to be upserted, for stores that embed: the embedder
   * is asked for their vectors now, so one that works elsewhere (another thread, a service)
   * does so while the caller prepares more, and the upsert of the same records (same id,
   * same text) uses them. Changes nothing stored; records never upserted cost the work and
   * the memory the store holds them in (it bounds it). Must not throw (ingest ignores it if it
   * does). Ingest calls it as documents are parsed.
   */
  embedAhead?(records: readonly KnowledgeRecord[]): void;
}
