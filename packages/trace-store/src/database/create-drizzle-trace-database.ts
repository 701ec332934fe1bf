import { and, count, desc, eq, gte, ilike, inArray, lt, or, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import type { StoredToolInvocation } from "./rows/stored-tool-invocation.js";
import type { TraceDatabase, TraceDatabaseDriver } from "./trace-database.js";
import type { TraceQuery } from "./trace-query.js";
import { readKnowledgeGapRows } from "./rows/read-knowledge-gap-rows.js";
import { readStoredDetails } from "./rows/read-stored-details.js";
import { sanitizeToolInvocationRecord } from "./rows/sanitize-tool-invocation-record.js";
import { storableTime } from "./storable-time.js";
import { toolInvocationTable as table } from "./tool-invocation-table.js";

const defaultLimit = 50;
/** What `createdAt` reads when the stored time is not one JavaScript can hold. */
const invalidTime = "Invalid Date";

/** Which statement failed: only the insert of records can have its data refused (`trace_record_rejected`). */
export type TraceStatement = "insert" | "other";

/**
 * The read and write queries of the trace store, written once against Drizzle's Postgres
 * dialect and run by either driver. `fail` turns a driver's error into the store's error.
 */
export function createDrizzleTraceDatabase(input: {
  driver: TraceDatabaseDriver;
  location: string;
  database: PgDatabase<PgQueryResultHKT>;
  /** `statement`: `insert` for the insert of records (whose refused data is the records'), `other` for any other statement. */
  fail: (error: unknown, operation: string, statement: TraceStatement) => Error;
  close: () => Promise<void>;
}): TraceDatabase {
  const { database, fail } = input;
  async function run<T>(operation: string, query: () => Promise<T>, statement: TraceStatement = "other"): Promise<T> {
    try {
      return await query();
    } catch (error) {
      throw fail(error, operation, statement);
    }
  }
  return {
    driver: input.driver,
    location: input.location,
    async insert(records: readonly ToolInvocationRecord[]): Promise<number> {
      if (records.length === 0) return 0;
      const rows = await run(
        "insert trace records",
        () =>
          database
            .insert(table)
            .values(records.map((record) => toRow(sanitizeToolInvocationRecord(record))))
            .onConflictDoNothing({ target: table.id })
            .returning({ id: table.id }),
        "insert",
      );
      return rows.length;
    },
    async list(query: TraceQuery = {}): Promise<StoredToolInvocation[]> {
      const limit = query.limit ?? defaultLimit;
      const rows = await run("list trace records", () =>
        database
          .select()
          .from(table)
          .where(and(...conditions(query)))
          .orderBy(desc(table.createdAt), desc(table.id))
          .limit(limit),
      );
      return rows.map(fromRow);
    },
    async get(id: string): Promise<StoredToolInvocation | undefined> {
      const rows = await run("read a trace record", () => database.select().from(table).where(eq(table.id, id)).limit(1));
      const row = rows[0];
      return row === undefined ? undefined : fromRow(row);
    },
    async prune(olderThan: Date): Promise<number> {
      const rows = await run("prune trace records", () =>
        database
          .delete(table)
          .where(lt(table.createdAt, storableTime(olderThan)))
          .returning({ id: table.id }),
      );
      return rows.length;
    },
    async count(): Promise<number> {
      const rows = await run("count trace records", () => database.select({ value: count() }).from(table));
      return Number(rows[0]?.value ?? 0);
    },
    knowledgeGapRows: (query) =>
      run("read the knowledge gaps", () =>
        readKnowledgeGapRows(database, { ...query, since: storableTime(query.since), until: storableTime(query.until) }),
      ),
    close: input.close,
  };
}

function conditions(query: TraceQuery): SQL[] {
  const where: SQL[] = [];
  if (query.since) where.push(gte(table.createdAt, storableTime(query.since)));
  if (query.until) where.push(lt(table.createdAt, storableTime(query.until)));
  if (query.found !== undefined) where.push(eq(table.found, query.found));
  if (query.fallbackReason !== undefined) where.push(eq(table.fallbackReason, query.fallbackReason));
  const matches: SQL[] = [];
  if (query.queryText !== undefined && query.queryText !== "") {
    if (query.queryTextWhole === true) matches.push(eq(table.query, query.queryText), eq(table.transformedQuery, query.queryText));
    else {
      const pattern = `%${escapeLike(query.queryText)}%`;
      matches.push(ilike(table.query, pattern), ilike(table.transformedQuery, pattern));
    }
  }
  if (query.queryHashes !== undefined && query.queryHashes.length > 0) {
    matches.push(inArray(table.query, query.queryHashes), inArray(table.transformedQuery, query.queryHashes));
  }
  const match = or(...matches);
  if (match) where.push(match);
  return where;
}

/** `%`, `_` and `\` match themselves (backslash is Postgres's default LIKE escape). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function toRow(record: ToolInvocationRecord): typeof table.$inferInsert {
  return {
    id: record.id,
    toolName: record.toolName,
    query: record.query,
    transformedQuery: record.transformedQuery,
    createdAt: new Date(record.createdAt),
    durationMs: record.durationMs,
    found: record.found,
    evidenceStatus: record.evidenceStatus,
    retrievalLayer: record.retrievalLayer,
    fallbackReason: record.fallbackReason,
    candidateCount: record.candidateCount,
    evidenceCount: record.evidenceCount,
    error: record.error,
    retrievalDetails: record.retrievalDetails,
  };
}

/**
 * A row as a record; no row of another writer or a hand edit makes the read throw (R29).
 * `retrieval_details` is read by `readStoredDetails`. A time JavaScript cannot hold (Postgres's
 * `infinity`, a date BC) is read as `Invalid Date` (`created_at`) or null (`recorded_at`),
 * named in `readNotes`. `evidence_status`, `retrieval_layer` and `fallback_reason` are text
 * columns read as stored: a value of a later version is a string outside the union (wrong in
 * type only; nothing here looks it up).
 */
function fromRow(row: typeof table.$inferSelect): StoredToolInvocation {
  const notes: string[] = [];
  const createdAt = isoTime(row.createdAt);
  if (createdAt === undefined) notes.push(`createdAt is not a time this version can read; read as "${invalidTime}"`);
  const recordedAt = row.recordedAt ? isoTime(row.recordedAt) : null;
  if (recordedAt === undefined) notes.push("recordedAt is not a time this version can read; read as null");
  return {
    id: row.id,
    toolName: row.toolName,
    query: row.query,
    transformedQuery: row.transformedQuery,
    createdAt: createdAt ?? invalidTime,
    durationMs: row.durationMs,
    found: row.found,
    evidenceStatus: row.evidenceStatus as ToolInvocationRecord["evidenceStatus"],
    retrievalLayer: row.retrievalLayer as ToolInvocationRecord["retrievalLayer"],
    fallbackReason: row.fallbackReason as ToolInvocationRecord["fallbackReason"],
    candidateCount: row.candidateCount,
    evidenceCount: row.evidenceCount,
    error: row.error,
    retrievalDetails: readStoredDetails(row.retrievalDetails, notes),
    recordedAt: recordedAt ?? null,
  };
}

/** The time as ISO 8601, or undefined when it is not one (`infinity` and dates BC reach here as invalid dates). */
function isoTime(time: Date): string | undefined {
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}
