import type { StoredToolInvocation } from "../database/rows/stored-tool-invocation.js";
import type { TraceDatabaseDriver } from "../database/trace-database.js";
import type { KnowledgeGapOptions } from "../gaps/knowledge-gap-options.js";
import type { KnowledgeGapReport } from "../gaps/knowledge-gap-report.js";
import type { TraceQuery } from "../database/trace-query.js";
import type { TraceFlushReport } from "../spool/trace-flush-report.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import type { SpoolingTraceStore } from "./spooling-trace-store.js";

/** Which tool invocations to read: `TraceQuery` without the hashes, which the store adds itself. */
export type TraceListQuery = Omit<TraceQuery, "queryHashes" | "queryTextWhole">;

/** A trace store that spools every record first and keeps it in PGlite or PostgreSQL (R27-R29). */
export interface DurableTraceStore extends SpoolingTraceStore {
  /** The trace folder: `spool/`, and `database/` for PGlite. */
  readonly directory: string;
  readonly driver: TraceDatabaseDriver;
  /** The PGlite folder, or the PostgreSQL URL without its password. */
  readonly databaseLocation: string;
  /** Appends the record to the spool (microseconds; no database involved); throws when it cannot. */
  append(invocation: ToolInvocationRecord): void;
  /** `append`, as a promise. */
  record(invocation: ToolInvocationRecord): Promise<void>;
  /** Moves every spooled record into the database. Rejects when it is unreachable; the records stay spooled. */
  flush(): Promise<TraceFlushReport>;
  /** Flushes, then lists calls, newest first. A `queryText` also finds queries stored as hashes, by exact text. */
  list(query?: TraceListQuery): Promise<StoredToolInvocation[]>;
  /**
   * The answer `list(query)` would give, read from the spool without opening the database,
   * when the spool alone decides it; else `undefined` (then `list` it). Only the embedded
   * (PGlite) database, which only this folder's spool fills, is known well enough: with
   * PostgreSQL, always `undefined`. Records in it have `recordedAt` null. Moves nothing.
   */
  listFromSpool(query?: TraceListQuery): StoredToolInvocation[] | undefined;
  /**
   * The call `id` while it is still in the spool (as `get` would read it, `recordedAt` null),
   * without opening the database; `undefined` when it is not there (then `get` it).
   */
  getFromSpool(id: string): StoredToolInvocation | undefined;
  /** Flushes, then reads one call by id. */
  get(id: string): Promise<StoredToolInvocation | undefined>;
  /** Flushes, then deletes the calls that started before `olderThan`; resolves to how many. */
  prune(olderThan: Date): Promise<number>;
  /** Flushes, then counts the calls stored. */
  count(): Promise<number>;
  /**
   * Flushes, then reads the period's refused and low-relevance lookups (aggregated in SQL)
   * and groups them by topic: what people ask that the knowledge base does not answer (issue 37).
   */
  knowledgeGaps(options: KnowledgeGapOptions): Promise<KnowledgeGapReport>;
  /**
   * Stops the background flusher, seals this process's spool segment, flushes and closes the
   * database. Never rejects. `flush: false`: no flush (a reader that answered from the spool
   * does not start the database to close); the records wait in the spool for the next one.
   */
  close(options?: { flush?: boolean }): Promise<void>;
}
