import type { LookupKnowledgeError } from "@lookup-knowledge/core";
import { asFlushError, createSpoolFlusher } from "./create-spool-flusher.js";
import { createTraceDatabaseSession } from "./database/trace-database-session.js";
import type { DurableTraceStore, TraceListQuery } from "./durable-trace-store.js";
import { readDurableTraceStoreOptions, type DurableTraceStoreOptions } from "./durable-trace-store-options.js";
import { hashQuery } from "./hash-query.js";
import { resolveQueryHashKey } from "./query-storage.js";
import { createTraceSpool } from "./spool/create-trace-spool.js";
import { flushTraceSpool } from "./spool/flush-trace-spool.js";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";
import { TraceStoreError } from "./trace-store-error.js";

export type { DurableTraceStoreOptions } from "./durable-trace-store-options.js";

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
  const report = (error: LookupKnowledgeError): void => {
    try {
      settings.onError(error);
    } catch {
      // The handler's own failure is not the store's.
    }
  };
  const spool = createTraceSpool({
    directory,
    queryStorage: settings.queryStorage,
    ...(settings.queryHashKey ? { queryHashKey: settings.queryHashKey } : {}),
    ...(settings.fsync ? { fsync: settings.fsync } : {}),
  });
  const session = createTraceDatabaseSession({
    target: {
      ...(database ? { url: database.url } : { directory: settings.pgliteDirectory }),
      lockWaitMs: settings.lockWaitMs,
      ...(settings.connectTimeoutMs ? { connectTimeoutMs: settings.connectTimeoutMs } : {}),
    },
    idleCloseMs: settings.idleCloseMs,
  });
  const flusher = createSpoolFlusher({
    directory,
    location,
    intervalMs: settings.flushIntervalMs,
    afterRecords: settings.flushAfterRecords,
    afterBytes: settings.flushAfterBytes,
    appendedBytes: () => spool.appendedBytes,
    flushSpool: (lockWaitMs) =>
      flushTraceSpool({
        directory,
        batchSize: settings.batchSize,
        lockWaitMs,
        foreignWriterIdleMs: settings.foreignWriterIdleMs,
        insert: (records: ToolInvocationRecord[]) => session.use((opened) => opened.insert(records)),
        onSkipped: report,
        onRejected: report,
      }),
    report,
  });
  let closed = false;

  async function flush() {
    await spool.flush();
    const outcome = await flusher.flush(settings.lockWaitMs);
    flusher.recovered();
    return outcome;
  }

  /** The key the records' query hashes were made with, read once (null: not read yet). */
  let keyForSearch: string | undefined | null = null;
  function queryHashes(text: string | undefined): string[] {
    if (text === undefined || text === "") return [];
    if (keyForSearch === null) {
      keyForSearch = resolveQueryHashKey(directory, { ...(settings.queryHashKey ? { key: settings.queryHashKey } : {}), create: false });
    }
    return keyForSearch === undefined ? [] : [hashQuery(text, keyForSearch)];
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
    record(invocation: ToolInvocationRecord): Promise<void> {
      try {
        append(invocation);
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    flush,
    async list(query: TraceListQuery = {}) {
      await flush();
      const hashes = queryHashes(query.queryText);
      return session.use((opened) => opened.list({ ...query, ...(hashes.length > 0 ? { queryHashes: hashes } : {}) }));
    },
    async get(id: string) {
      await flush();
      return session.use((opened) => opened.get(id));
    },
    async prune(olderThan: Date) {
      await flush();
      return session.use((opened) => opened.prune(olderThan));
    },
    async count() {
      await flush();
      return session.use((opened) => opened.count());
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      session.cancelIdleClose();
      await flusher.stop();
      // The segment is flushed even when sealing it failed: it left the live set, so the
      // flush takes it as finished.
      try {
        await spool.close();
      } catch (error) {
        report(asFlushError(error, location));
      }
      try {
        await flusher.flush(settings.lockWaitMs);
      } catch (error) {
        report(asFlushError(error, location));
      }
      await session.close();
    },
  };
}
