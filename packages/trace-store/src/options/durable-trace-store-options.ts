import { join } from "node:path";
import { parseOptions, type LookupKnowledgeError } from "@lookup-knowledge/core";
import { z } from "zod";
import { defaultLockWaitMs } from "../durable/acquire-file-lock.js";
import { parseDatabaseUrl } from "./parse-database-url.js";
import { resolveQueryStorage, type QueryStorage } from "../record/query-storage.js";
import { defaultForeignWriterIdleMs } from "../spool/spool-segment.js";
import { spoolFsyncSchema, type SpoolFsync } from "../spool/trace-spool-options.js";
import { wholeNumberOption } from "./whole-number-option.js";

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
  /**
   * The most bytes of records this store appended that may wait in the spool for the
   * database: past it `append` refuses with `trace_spool_full` (a recorder keeps the record in
   * memory, and drops the oldest past its `maxPending`, saying so), so a long outage or lookups
   * faster than flushes cannot grow this store's part of the spool without bound (the bound is
   * per store object: another process or a later run has its own). Default 256 MiB (about
   * 120,000 records of 2.2 KB); 0: no bound.
   */
  maxSpoolBytes?: number;
  /** The database connections are let go after this many ms without use (a PGlite folder's trace server exits once none is left). Default 1000. */
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

/** The default of `maxSpoolBytes`: 256 MiB. */
export const defaultMaxSpoolBytes = 256 * 1024 * 1024;

/**
 * The options `parseOptions` checks, with the defaults that do not depend on others.
 * `databaseUrl`, `queryHashKey` and `queryStorage` are checked by their own functions (a URL
 * or a key may hold a secret that no error may show); `connectTimeoutMs` goes to the driver.
 */
const durableTraceStoreOptionsSchema = z.object({
  directory: z.string({ error: "must be the path of the trace folder" }),
  databaseDirectory: z.string({ error: "must be the path of the PGlite folder" }).optional(),
  fsync: spoolFsyncSchema(z).optional(),
  flushIntervalMs: wholeNumberOption(z, 0).default(2000),
  flushAfterRecords: wholeNumberOption(z, 0).optional(),
  flushAfterBytes: wholeNumberOption(z, 0).optional(),
  batchSize: wholeNumberOption(z, 1).default(500),
  maxSpoolBytes: wholeNumberOption(z, 0).default(defaultMaxSpoolBytes),
  idleCloseMs: wholeNumberOption(z, 0).default(1000),
  lockWaitMs: wholeNumberOption(z, 0).default(defaultLockWaitMs),
  foreignWriterIdleMs: wholeNumberOption(z, 0).default(defaultForeignWriterIdleMs),
});

/** `DurableTraceStoreOptions` checked, with every default filled in. */
export interface DurableTraceStoreSettings {
  directory: string;
  /** PostgreSQL, when a `databaseUrl` was given: the URL, and the text to show for it. */
  database: { url: string; redacted: string } | undefined;
  pgliteDirectory: string;
  /** The PGlite folder, or the PostgreSQL URL without its password. */
  location: string;
  queryStorage: QueryStorage;
  queryHashKey: string | undefined;
  fsync: SpoolFsync | undefined;
  flushIntervalMs: number;
  flushAfterRecords: number;
  flushAfterBytes: number;
  batchSize: number;
  maxSpoolBytes: number;
  idleCloseMs: number;
  lockWaitMs: number;
  foreignWriterIdleMs: number;
  connectTimeoutMs: number | undefined;
  onError: (error: LookupKnowledgeError) => void;
}

/** Checks the options of `createDurableTraceStore`; a bad one throws `ConfigurationError` naming it. */
export function readDurableTraceStoreOptions(options: DurableTraceStoreOptions): DurableTraceStoreSettings {
  const checked = parseOptions(durableTraceStoreOptionsSchema, options, "createDurableTraceStore");
  const queryStorage = resolveQueryStorage(options.queryStorage);
  const database = options.databaseUrl === undefined ? undefined : parseDatabaseUrl(options.databaseUrl);
  // Without a background flusher, nothing starts a flush by itself: both bounds default to off.
  const background = checked.flushIntervalMs > 0;
  const pgliteDirectory = checked.databaseDirectory ?? join(checked.directory, "database");
  return {
    directory: checked.directory,
    database,
    pgliteDirectory,
    location: database?.redacted ?? pgliteDirectory,
    queryStorage,
    queryHashKey: options.queryHashKey || undefined,
    fsync: checked.fsync,
    flushIntervalMs: checked.flushIntervalMs,
    flushAfterRecords: checked.flushAfterRecords ?? (background ? 1000 : 0),
    flushAfterBytes: checked.flushAfterBytes ?? (background ? 4 * 1024 * 1024 : 0),
    batchSize: checked.batchSize,
    maxSpoolBytes: checked.maxSpoolBytes,
    idleCloseMs: checked.idleCloseMs,
    lockWaitMs: checked.lockWaitMs,
    foreignWriterIdleMs: checked.foreignWriterIdleMs,
    connectTimeoutMs: options.connectTimeoutMs || undefined, // handed to the driver as given
    onError: options.onError ?? ((error: LookupKnowledgeError) => console.warn(error.message)),
  };
}
