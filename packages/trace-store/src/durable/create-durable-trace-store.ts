import { closeDurableStoreParts } from "./close-durable-store-parts.js";
import { createDurableStoreParts } from "./create-durable-store-parts.js";
import { readDatabaseNewest } from "./database-newest.js";
import { fitsTraceTable } from "../database/fits-trace-table.js";
import { listSpooledRecords } from "../flusher/list-spooled-records.js";
import { readSpooledLines } from "../spool/read-spooled-lines.js";
import { storedFromSpool } from "../flusher/stored-from-spool.js";
import { createQueryHashesForSearch } from "../record/create-query-hashes-for-search.js";
import { createHashOnRead } from "../record/create-hash-on-read.js";
import { createQueryHashKey } from "../record/query-hash-key.js";
import type { TraceDatabase } from "../database/trace-database.js";
import type { TraceQuery } from "../database/trace-query.js";
import type { DurableTraceStore, TraceListQuery } from "./durable-trace-store.js";
import { readDurableTraceStoreOptions, type DurableTraceStoreOptions } from "../options/durable-trace-store-options.js";
import { guardErrorHandler } from "../recorder/guard-error-handler.js";
import { buildKnowledgeGapReport, defaultMaxLookupIds } from "../gaps/build-knowledge-gap-report.js";
import type { KnowledgeGapOptions } from "../gaps/knowledge-gap-options.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import { TraceStoreError } from "../errors/trace-store-error.js";
import { recordThroughAppend } from "../record/record-through-append.js";

export type { DurableTraceStoreOptions } from "../options/durable-trace-store-options.js";

/**
 * The most bytes of spooled records `listFromSpool` and `getFromSpool` read (64 MiB, about
 * 10,000 records of 6 KB: well under a second); past it they leave the answer to the
 * database, whose flush also empties the spool, so a folder that is only ever listed does not
 * let its spool grow without bound.
 */
export const spoolReadLimitBytes = 64 * 1024 * 1024;

/**
 * The durable trace store. `record` appends to the spool of `directory` and returns at once
 * (R29: a lookup never waits for or fails on the database). A background flusher (every
 * `flushIntervalMs`) and every read move spooled records into the database, exactly once
 * and in order (`flushTraceSpool`). While the database is unreachable, records wait in the
 * spool; the flusher reports the outage once and backs off up to 60 s.
 *
 * The spool is the store's durable path: a recorder in front of it (`createTraceRecorder`)
 * appends straight to it (the store is `durable`), with no queue, timeout or backoff of its
 * own, unless the spool itself cannot be written.
 *
 * The database is opened on first use (drivers loaded then), migrated, and closed again after
 * `idleCloseMs` without use. Throws `ConfigurationError` for a bad `databaseUrl` or option.
 */
export function createDurableTraceStore(options: DurableTraceStoreOptions): DurableTraceStore {
  const settings = readDurableTraceStoreOptions(options);
  const { directory, database, location } = settings;
  const report = guardErrorHandler(settings.onError);
  // One key for the spool's writes, the searches and the hashing on read: the folder's file is read once.
  const queryHashKey = createQueryHashKey(directory, settings.queryHashKey);
  const parts = createDurableStoreParts(settings, report, queryHashKey);
  const { spool, session, flusher } = parts;
  const queryHashes = createQueryHashesForSearch(queryHashKey);
  /** A listing's query with the hashes its text is searched by; under `hash`, the text matches a record kept as text only whole. */
  const searched = (query: TraceListQuery): TraceQuery => {
    const hashes = queryHashes(query.queryText);
    return {
      ...query,
      ...(hashes.length > 0 ? { queryHashes: hashes } : {}),
      ...(settings.queryStorage === "hash" ? { queryTextWhole: true } : {}),
    };
  };
  const shown = createHashOnRead(settings.queryStorage, queryHashKey);
  let closed = false;

  async function flush() {
    await spool.flush();
    const outcome = await flusher.flush(settings.lockWaitMs);
    flusher.recovered();
    return outcome;
  }

  /** Flushes, then runs `work` on the database: every read sees what was recorded before it. */
  async function afterFlush<T>(work: (opened: TraceDatabase) => Promise<T>): Promise<T> {
    await flush();
    return session.use(work);
  }

  function append(invocation: ToolInvocationRecord): void {
    if (settings.maxSpoolBytes > 0 && flusher.unflushedBytes() >= settings.maxSpoolBytes) {
      flusher.makeRoom(); // a flush, if none runs, also with flushIntervalMs 0
      throw new TraceStoreError({
        code: "trace_spool_full",
        message: `The trace spool at ${directory} holds ${flusher.unflushedBytes()} bytes of records not yet in the database (maxSpoolBytes ${settings.maxSpoolBytes}): record ${invocation.id} is refused until a flush makes room.`,
        location: directory,
      });
    }
    try {
      spool.append(invocation);
    } finally {
      flusher.appended();
    }
  }

  return {
    directory,
    driver: database ? "postgres" : "pglite",
    databaseLocation: location,
    durable: true,
    append,
    record: recordThroughAppend(append),
    flush,
    async list(query: TraceListQuery = {}) {
      await flush();
      const records = await session.use((opened) => opened.list(searched(query)));
      return records.map(shown);
    },
    listFromSpool(query: TraceListQuery = {}) {
      if (database) return undefined;
      // The spool first, the database's newest record after (see readSpooledLines).
      const spooled = readSpooledLines(directory, spoolReadLimitBytes);
      if (spooled === undefined) return undefined;
      return listSpooledRecords(spooled, searched(query), readDatabaseNewest(settings.pgliteDirectory))?.map(shown);
    },
    getFromSpool(id: string) {
      const record = readSpooledLines(directory, spoolReadLimitBytes)
        ?.find((spooled) => spooled.id === id)
        ?.record();
      // A record the database may refuse (the flush quarantines it) is left to `get`.
      return record === undefined || !fitsTraceTable(record) ? undefined : shown(storedFromSpool(record));
    },
    get: async (id: string) => {
      const record = await afterFlush((opened) => opened.get(id));
      return record === undefined ? undefined : shown(record);
    },
    prune: (olderThan: Date) => afterFlush((opened) => opened.prune(olderThan)),
    count: () => afterFlush((opened) => opened.count()),
    async knowledgeGaps(options: KnowledgeGapOptions) {
      const until = options.until ?? new Date();
      const maxLookupIds = options.maxLookupIds ?? defaultMaxLookupIds;
      const rows = await afterFlush((opened) => opened.knowledgeGapRows({ since: options.since, until, maxLookupIds }));
      // Under `hash` no read shows a query's text, this one included, whatever the caller passes.
      const queryStorage = settings.queryStorage === "hash" ? "hash" : options.queryStorage;
      return buildKnowledgeGapReport(rows, { ...options, ...(queryStorage ? { queryStorage } : {}), until, maxLookupIds });
    },
    async close(options: { flush?: boolean } = {}): Promise<void> {
      if (closed) return;
      closed = true;
      await closeDurableStoreParts(parts, { lockWaitMs: settings.lockWaitMs, location, report, ...options });
    },
  };
}
