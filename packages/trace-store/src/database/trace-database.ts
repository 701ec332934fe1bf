import type { KnowledgeGapRow } from "../gaps/knowledge-gap-row.js";
import type { KnowledgeGapRowQuery } from "../gaps/knowledge-gap-row-query.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import type { StoredToolInvocation } from "./rows/stored-tool-invocation.js";
import type { TraceQuery } from "./trace-query.js";

/** Which database a trace store uses. */
export type TraceDatabaseDriver = "pglite" | "postgres";

/** The `tool_invocation` table of one database, PGlite or PostgreSQL, migrated to the current schema. */
export interface TraceDatabase {
  readonly driver: TraceDatabaseDriver;
  /** The folder (PGlite) or the URL without its password (PostgreSQL). */
  readonly location: string;
  /**
   * Inserts records in order in one statement; an id already present is left alone. Resolves
   * to the rows added. Text Postgres cannot hold (NUL, lone surrogates) is replaced first
   * (`retrievalDetails.sanitizedFields` names it). Rejects with `trace_record_rejected` when
   * the database refuses the data of a record (the whole statement is then undone).
   */
  insert(records: readonly ToolInvocationRecord[]): Promise<number>;
  list(query?: TraceQuery): Promise<StoredToolInvocation[]>;
  get(id: string): Promise<StoredToolInvocation | undefined>;
  /** Deletes the calls that started before `olderThan`; resolves to how many. */
  prune(olderThan: Date): Promise<number>;
  count(): Promise<number>;
  /** The period's refused and low-relevance lookups, one row per distinct stored query, aggregated in SQL (issue 37). */
  knowledgeGapRows(query: KnowledgeGapRowQuery): Promise<KnowledgeGapRow[]>;
  close(): Promise<void>;
}
