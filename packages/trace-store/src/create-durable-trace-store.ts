import { join } from "node:path";
import { ConfigurationError, LookupKnowledgeError } from "@lookup-knowledge/core";
import { defaultLockWaitMs } from "./acquire-file-lock.js";
import type { DurableTraceStore, TraceListQuery } from "./durable-trace-store.js";
import type { TraceDatabase } from "./database/trace-database.js";
import { hashQuery } from "./hash-query.js";
import { parseDatabaseUrl } from "./parse-database-url.js";
import { resolveQueryHashKey, resolveQueryStorage, type QueryStorage } from "./query-storage.js";
import { createTraceSpool, type SpoolFsync } from "./spool/create-trace-spool.js";
import { flushTraceSpool } from "./spool/flush-trace-spool.js";
import { defaultForeignWriterIdleMs, listSpoolSegments, liveSegments, spoolDirectory } from "./spool/spool-segment.js";
import type { TraceFlushReport } from "./spool/trace-flush-report.js";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";
import { TraceStoreError } from "./trace-store-error.js";

/** The longest wait between two background flushes after failures. */
const longestBackoffMs = 60_000;

export interface DurableTraceStoreOptions {
  /** The trace folder, e.g. `<data folder>/traces`: the spool, and the PGlite database in `database/`. */
  directory: string;
  /** A `postgres://` URL selects PostgreSQL; without it, the embedded PGlite database is used. */
  databaseUrl?: string;
  /** The PGlite folder; default `<directory>/database`. */
  databaseDirectory?: string;
  /** `text` (default) or `hash`: keep only a keyed hash of each query (see `hashQuery`). */
  queryStorage?: QueryStorage;
  /** The key of query hashes; default a random key kept in `<directory>/query-hash.key`. */
  queryHashKey?: string;
  /** The spool's fsync policy (see `createTraceSpool`). Default `on-flush`. */
  fsync?: SpoolFsync;
  /** How often the background flusher looks for spooled records, in ms; 0: never (flush by hand). Default 2000. */
  flushIntervalMs?: number;
  /**
   * A background flush also starts as soon as this many records were appended since the
   * last one began, without waiting for the timer (which back-to-back lookups can keep
   * from running). 0: only the timer. Default 1000 (0 when `flushIntervalMs` is 0).
   */
  flushAfterRecords?: number;
  /** The same, by bytes appended to the spool. Default 4 MiB (0 when `flushIntervalMs` is 0). */
  flushAfterBytes?: number;
  /** Records per insert. Default 500. */
  batchSize?: number;
  /** The database is closed after this many ms without use (so another process can open PGlite). Default 1000. */
  idleCloseMs?: number;
  /** How long a flush or an open waits for another process's lock. Default 15 s. */
  lockWaitMs?: number;
  /**
   * An open spool segment of another host or PID namespace (a container sharing the folder)
   * counts as finished once unchanged for this long, in ms. Default 600000 (10 minutes).
   */
  foreignWriterIdleMs?: number;
  /** PostgreSQL: how long to wait for a connection. Default 5 s. */
  connectTimeoutMs?: number;
  /** Told of background flush failures (once per outage) and skipped spool lines. Default `console.warn`. */
  onError?: (error: LookupKnowledgeError) => void;
}

/**
 * The durable trace store. `record` appends to the spool of `directory` and returns at once
 * (R29: a lookup never waits for or fails on the database). A background flusher (every
 * `flushIntervalMs`) and every read move spooled records into the database, exactly once
 * and in order (`flushTraceSpool`). While the database is unreachable, records wait in the
 * spool; the flusher reports the outage once and backs off up to 60 s.
 *
 * The database is opened on first use (drivers loaded then), migrated, and closed again after
 * `idleCloseMs` without use. Throws `ConfigurationError` for a bad `databaseUrl` or option.
 */
export function createDurableTraceStore(options: DurableTraceStoreOptions): DurableTraceStore {
  const directory = options.directory;
  const queryStorage = resolveQueryStorage(options.queryStorage);
  const database = options.databaseUrl === undefined ? undefined : parseDatabaseUrl(options.databaseUrl);
  const flushIntervalMs = wholeNumber("flushIntervalMs", options.flushIntervalMs, 2000, 0);
  const idleCloseMs = wholeNumber("idleCloseMs", options.idleCloseMs, 1000, 0);
  const lockWaitMs = wholeNumber("lockWaitMs", options.lockWaitMs, defaultLockWaitMs, 0);
  const batchSize = wholeNumber("batchSize", options.batchSize, 500, 1);
  const background = flushIntervalMs > 0;
  const flushAfterRecords = wholeNumber("flushAfterRecords", options.flushAfterRecords, background ? 1000 : 0, 0);
  const flushAfterBytes = wholeNumber("flushAfterBytes", options.flushAfterBytes, background ? 4 * 1024 * 1024 : 0, 0);
  const foreignWriterIdleMs = wholeNumber("foreignWriterIdleMs", options.foreignWriterIdleMs, defaultForeignWriterIdleMs, 0);
  const onError = options.onError ?? ((error: LookupKnowledgeError) => console.warn(error.message));
  const report = (error: LookupKnowledgeError): void => {
    try {
      onError(error);
    } catch {
      // The handler's own failure is not the store's.
    }
  };
  const spool = createTraceSpool({
    directory,
    queryStorage,
    ...(options.queryHashKey ? { queryHashKey: options.queryHashKey } : {}),
    ...(options.fsync ? { fsync: options.fsync } : {}),
  });
  const pgliteDirectory = options.databaseDirectory ?? join(directory, "database");
  const location = database?.redacted ?? pgliteDirectory;

  let session: Promise<TraceDatabase> | undefined;
  let users = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let flushing: Promise<unknown> = Promise.resolve();
  let appended = 0;
  let closed = false;
  let failing = false;
  let backoffMs = flushIntervalMs;
  let nextAttemptAt = 0;

  async function closeSession(): Promise<void> {
    const current = session;
    session = undefined;
    if (current) await current.then((opened) => opened.close()).catch(() => undefined);
  }

  /** Runs `work` with the database open, opening it when needed; closes it when idle. */
  async function withDatabase<T>(work: (opened: TraceDatabase) => Promise<T>): Promise<T> {
    users += 1;
    if (idleTimer) clearTimeout(idleTimer);
    try {
      if (!session) {
        const { openTraceDatabase } = await import("./database/open-trace-database.js"); // light; it loads the drivers
        const opening = openTraceDatabase({
          ...(database ? { url: database.url } : { directory: pgliteDirectory }),
          lockWaitMs,
          ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
        });
        session = opening;
        opening.catch(() => {
          if (session === opening) session = undefined;
        });
      }
      const opened = await session;
      try {
        return await work(opened);
      } catch (error) {
        // A broken embedded database is reopened next time; the pg pool reconnects by itself.
        if (TraceStoreError.isInstance(error) && error.code === "trace_database_unavailable") await closeSession();
        throw error;
      }
    } finally {
      users -= 1;
      if (users === 0) {
        idleTimer = setTimeout(() => {
          if (users === 0) void closeSession();
        }, idleCloseMs);
        idleTimer.unref?.();
      }
    }
  }

  function flushOnce(waitMs: number): Promise<TraceFlushReport> {
    const run = flushing.then(async () => {
      const before = appended;
      const outcome = await flushTraceSpool({
        directory,
        batchSize,
        lockWaitMs: waitMs,
        foreignWriterIdleMs,
        insert: (records: ToolInvocationRecord[]) => withDatabase((opened) => opened.insert(records)),
        onSkipped: report,
        onRejected: report,
      });
      appended -= before;
      return outcome;
    });
    flushing = run.catch(() => undefined);
    return run;
  }

  async function flush(): Promise<TraceFlushReport> {
    await spool.flush();
    const outcome = await flushOnce(lockWaitMs);
    failing = false;
    backoffMs = flushIntervalMs;
    return outcome;
  }

  /** Whether a background flush has anything to do: own appends, or a segment not being written here. */
  function somethingSpooled(): boolean {
    if (appended > 0) return true;
    try {
      return listSpoolSegments(spoolDirectory(directory)).some((segment) => !liveSegments.has(segment.file));
    } catch {
      return false;
    }
  }

  let timer: ReturnType<typeof setInterval> | undefined;
  let ticking = false;
  /** `spool.appendedBytes` when the last background flush began. */
  let bytesAtLastFlush = 0;
  /** One background flush at a time; after a failure, not before the backoff has passed. */
  function backgroundFlush(): void {
    if (ticking || closed || Date.now() < nextAttemptAt || !somethingSpooled()) return;
    ticking = true;
    bytesAtLastFlush = spool.appendedBytes;
    flushOnce(0)
      .then(() => {
        failing = false;
        backoffMs = flushIntervalMs;
        nextAttemptAt = 0;
      })
      .catch((error: unknown) => {
        // Another process flushing is no failure: the records are on their way.
        if (TraceStoreError.isInstance(error) && error.code === "trace_store_locked") return;
        if (!failing) {
          failing = true;
          report(asStoreError(error, location));
        }
        nextAttemptAt = Date.now() + (backoffMs || 1000);
        backoffMs = Math.min((backoffMs || 1000) * 2, longestBackoffMs);
      })
      .finally(() => {
        ticking = false;
      });
  }
  if (background) {
    timer = setInterval(backgroundFlush, flushIntervalMs);
    timer.unref?.();
  }
  /** Starts a flush once enough was appended: the timer alone starves under back-to-back lookups. */
  function flushWhenFull(): void {
    if (ticking) return;
    const byCount = flushAfterRecords > 0 && appended >= flushAfterRecords;
    const byBytes = flushAfterBytes > 0 && spool.appendedBytes - bytesAtLastFlush >= flushAfterBytes;
    if (byCount || byBytes) backgroundFlush();
  }

  let keyForSearch: string | undefined | null = null;
  function queryHashes(text: string | undefined): string[] {
    if (text === undefined || text === "") return [];
    if (keyForSearch === null) {
      keyForSearch = resolveQueryHashKey(directory, { ...(options.queryHashKey ? { key: options.queryHashKey } : {}), create: false });
    }
    return keyForSearch === undefined ? [] : [hashQuery(text, keyForSearch)];
  }

  return {
    directory,
    driver: database ? "postgres" : "pglite",
    databaseLocation: location,
    record(invocation: ToolInvocationRecord): Promise<void> {
      const written = spool.record(invocation);
      appended += 1;
      flushWhenFull();
      return written;
    },
    flush,
    async list(query: TraceListQuery = {}) {
      await flush();
      const hashes = queryHashes(query.queryText);
      return withDatabase((opened) => opened.list({ ...query, ...(hashes.length > 0 ? { queryHashes: hashes } : {}) }));
    },
    async get(id: string) {
      await flush();
      return withDatabase((opened) => opened.get(id));
    },
    async prune(olderThan: Date) {
      await flush();
      return withDatabase((opened) => opened.prune(olderThan));
    },
    async count() {
      await flush();
      return withDatabase((opened) => opened.count());
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      if (idleTimer) clearTimeout(idleTimer);
      await flushing;
      // The segment is flushed even when sealing it failed: it left the live set, so the
      // flush takes it as finished.
      try {
        await spool.close();
      } catch (error) {
        report(asStoreError(error, location));
      }
      try {
        await flushOnce(lockWaitMs);
      } catch (error) {
        report(asStoreError(error, location));
      }
      await closeSession();
    },
  };
}

function asStoreError(error: unknown, location: string): LookupKnowledgeError {
  if (LookupKnowledgeError.isInstance(error)) return error;
  return new TraceStoreError({
    code: "trace_database_unavailable",
    message: `Could not flush trace records into ${location}: ${(error as Error)?.message ?? String(error)}. They stay in the spool.`,
    location,
    cause: error,
  });
}

function wholeNumber(key: string, value: number | undefined, fallback: number, least: number): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < least) {
    throw new ConfigurationError({ key, value: chosen, reason: `must be a whole number, ${least} or more` });
  }
  return chosen;
}
