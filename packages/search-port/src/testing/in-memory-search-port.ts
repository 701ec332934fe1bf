import type { KnowledgeSearchPort } from "../knowledge-search-port.js";
import type { InMemoryRecord } from "./in-memory-record.js";

/** A small lexical `KnowledgeSearchPort` over records held in memory. */
export interface InMemorySearchPort extends KnowledgeSearchPort {
  /** Adds records, replacing any with the same id. */
  upsert(records: InMemoryRecord[]): void;
  /** Removes every record whose metadata `docId` (or `doc_id`) is `docId`; returns how many. */
  deleteByDocId(docId: string): number;
  /** How many records are held. */
  readonly size: number;
}
