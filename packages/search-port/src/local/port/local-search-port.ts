import type { MetadataFilter } from "@lookup-knowledge/core";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import type { KnowledgeRecordReader } from "../../knowledge-record-reader.js";
import type { KnowledgeSearchPort } from "../../knowledge-search-port.js";
import type { KnowledgeWriter } from "../../knowledge-writer.js";
import type { RefreshError } from "../reader/reader-refresh.js";

/** Who made an index's vectors. Two identities are the same embedder when all three fields are equal. */
export interface EmbedderIdentity {
  id: string;
  version: string;
  dimension: number;
}

/** What `onEmbedderChange` is told of the committed index whose embedder differs. */
export interface CommittedIndexSummary {
  /** Whose vectors it holds (null: none). */
  embedder: EmbedderIdentity | null;
  chunks: number;
  documents: number;
}

/** What an index holds. */
export interface LocalIndexStats {
  /** Distinct documents (`docId` / `doc_id`); a record without one counts as its own document. */
  documents: number;
  /** Records (chunks). */
  chunks: number;
  /** The embedder whose vectors the index holds; absent for a lexical-only index. */
  embedder?: EmbedderIdentity;
  /** Bytes of the last commit: its segments' files, its deletes and counts files, and the manifest. */
  bytesOnDisk: number;
  /**
   * Segments searches read: a reader's, those of the commit it serves (an index of format 6
   * or older is one); a writer's, also those written or held in memory since. `optimize()` makes one.
   */
  segments: number;
  /** When the last commit happened (ISO 8601); absent before the first commit. */
  lastCommit?: string;
  /**
   * A reader only, and only while the newest commit could not be loaded: why (the code and
   * message of the error), and when. The counts and `lastCommit` are then those of the
   * generation still served. Cleared once a later commit loads.
   */
  refreshError?: RefreshError;
}

/** One metadata key a filter can name: how many records carry it, and its most common values. */
export interface MetadataKeyStats {
  key: string;
  /** Records (chunks) whose metadata holds the key (a value neither undefined nor null). */
  chunks: number;
  /** Its distinct values; absent when it had more than `valuesCountedPerKey` when they were counted (then `topValues` is empty). */
  distinctValues?: number;
  /** Its most common values a filter can match (a list counts each element), most records first, then by value. */
  topValues: Array<{ value: string | number | boolean; chunks: number }>;
}

/** What `metadataKeys()` tells: each metadata key of the records searches see now, and how it was counted. */
export interface MetadataKeysSummary {
  /** The keys, most records first, then by name. */
  keys: MetadataKeyStats[];
  /** `"commit"`: from the counts the last commit kept, updated by pending changes; `"scan"`: every record read now (an index of format 5 or older). */
  countedFrom: "commit" | "scan";
  /** Distinct values counted per key; a key with more has none listed. */
  valuesCountedPerKey: number;
}

/**
 * The embedded default port: hybrid BM25 + dense search over an index kept in one folder.
 * Searches see every upsert and delete of this port at once; other processes see them
 * after `commit`.
 */
export interface LocalSearchPort extends KnowledgeSearchPort, KnowledgeWriter, KnowledgeRecordReader {
  /**
   * Writes pending upserts as a new segment and deletes as a list of the records gone (merging
   * small segments as it goes), then switches the manifest to them atomically: a crash at any
   * point leaves the previous commit readable. Write mode only.
   */
  commit(): Promise<void>;
  /**
   * Commits as `commit` does, writing every live record into one segment: the segments that
   * commits added are merged and deleted records dropped, so searches read one segment. Commits
   * already merge small segments as they go; a long-running host calls this when it is idle
   * (the CLI's `optimize`). Readers keep searching the commit they hold until it is switched.
   * Write mode only.
   */
  optimize(): Promise<void>;
  /**
   * Asks the embedder now for the vectors of records about to be upserted (see
   * `KnowledgeWriter.embedAhead`); the upsert of the same id and text takes them. At most
   * 8,192 records' vectors are held ahead (past that the oldest are let go) and 4 calls asked
   * ahead run at once (the next wait); `close` lets go of the rest. In read mode or without
   * embeddings it does nothing. Never throws: a bad record is refused by its upsert.
   */
  embedAhead(records: readonly KnowledgeRecord[]): void;
  /**
   * How common a text's rarest word is in the committed index: the smallest share of records
   * holding one of its analysed terms, 0..1 (0 when a term is in no record). The L0 index
   * reads it to tell a common phrase ("load balance") from a specific one (`isCommonTerm`).
   * With `scope` (a metadata filter: tenant, access scope), only the records it admits count,
   * as searches under that scope count them.
   */
  termShare(text: string, scope?: MetadataFilter): number;
  /** How many records of the committed index `scope` admits (all of them without one). */
  scopeSize(scope?: MetadataFilter): number;
  /** Counts of what searches see now (pending changes included); bytes and time of the last commit. */
  stats(): LocalIndexStats;
  /**
   * The metadata keys of what searches see now, each with how many records carry it and its
   * `topValues` (default 10) most common values, for writing filters. An index of format 6
   * keeps the counts at each commit, so this reads one small file; an older one reads every
   * record's metadata once per call.
   */
  metadataKeys(options?: { topValues?: number }): MetadataKeysSummary;
  /**
   * Refuses new calls at once, lets calls already made finish (a queued `commit` still
   * commits, a running search still returns), then releases the lock and the open files.
   * Upserts and deletes not committed by then are discarded. Every later call rejects
   * (code `index_closed`).
   */
  close(): Promise<void>;
}
