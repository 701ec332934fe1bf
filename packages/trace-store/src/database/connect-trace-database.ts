import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { defaultLockWaitMs } from "../durable/acquire-file-lock.js";
import { parseDatabaseUrl } from "../options/parse-database-url.js";
import { TraceStoreError } from "../errors/trace-store-error.js";
import { createDrizzleTraceDatabase, type TraceStatement } from "./create-drizzle-trace-database.js";
import { describeDatabaseError } from "./describe-database-error.js";
import type { TraceDatabase, TraceDatabaseDriver } from "./trace-database.js";
import type { TraceDatabaseOptions } from "./trace-database-options.js";
import { traceMigrationsFolder } from "./trace-migrations-folder.js";

/** Two processes migrating one PostgreSQL database take turns on this advisory lock. */
const migrationLockKey = 7_412_190_311;

/** `openTraceDatabase`, loaded on first use with the drivers and Drizzle. */
export async function connectTraceDatabase(options: TraceDatabaseOptions): Promise<TraceDatabase> {
  const migrationsFolder = options.migrationsFolder ?? traceMigrationsFolder;
  if (options.url !== undefined) return openPostgres(options.url, migrationsFolder, options);
  if (options.directory === undefined) {
    throw new TraceStoreError({
      code: "trace_database_unavailable",
      message: "openTraceDatabase needs a PGlite folder (directory) or a PostgreSQL URL (url).",
      location: "",
      retryable: false,
    });
  }
  return openPglite(options.directory, migrationsFolder, options);
}

/**
 * The PGlite folder through its trace server (`ensureTraceServer`): this process is one of
 * its clients, over `pg` and a Unix socket, so it never holds PGlite itself and never waits
 * for another process to let go of the folder. The server migrates at start; the client
 * migrates too (a no-op when the schema is current), so a server started by an older copy
 * is brought forward.
 */
async function openPglite(directory: string, migrationsFolder: string, options: TraceDatabaseOptions): Promise<TraceDatabase> {
  // Every failure of the embedded database is `trace_database_unavailable`, its session reopens it.
  const fail = (error: unknown, operation: string, statement: TraceStatement = "other"): Error => {
    if (TraceStoreError.isInstance(error)) return error;
    const cause = describeDatabaseError(error);
    if (cause.refusedData && statement === "insert") return refused(error, operation, directory, cause.message);
    return new TraceStoreError({
      code: "trace_database_unavailable",
      message: `Could not ${operation} in the embedded trace database at ${directory}: ${cause.message}`,
      location: directory,
      cause: error,
    });
  };
  const { ensureTraceServer } = await import("./server/ensure-trace-server.js");
  const lockWaitMs = options.lockWaitMs ?? defaultLockWaitMs;
  // A server that was closing (its idle time out) or was killed as this process connected
  // drops the connection: the next round starts a new one.
  for (let round = 1; ; round += 1) {
    const socketDirectory = await ensureTraceServer({ directory, migrationsFolder, lockWaitMs });
    try {
      return await openPool(
        { host: socketDirectory, port: 5432, user: "postgres", database: "template1" },
        { driver: "pglite", location: directory, migrationsFolder, options, fail },
      );
    } catch (error) {
      const lost = TraceStoreError.isInstance(error) && describeDatabaseError(error.cause).connectionLost;
      if (!lost || round >= serverRounds) throw error;
      await new Promise((done) => setTimeout(done, 100 * round));
    }
  }
}

/** How many servers one open tries when each drops its connection at once. */
const serverRounds = 3;

async function openPostgres(value: string, migrationsFolder: string, options: TraceDatabaseOptions): Promise<TraceDatabase> {
  const { url, redacted } = parseDatabaseUrl(value);
  // Open and migrate pass "other": their errors are an outage or the database's own trouble,
  // never a refused record (the flush would quarantine every spooled record).
  const fail = (error: unknown, operation: string, statement: TraceStatement = "other"): Error => {
    if (TraceStoreError.isInstance(error)) return error;
    const cause = describeDatabaseError(error);
    if (cause.refusedData && statement === "insert") return refused(error, operation, redacted, cause.message);
    if (cause.connectionLost) {
      return new TraceStoreError({
        code: "trace_database_unreachable",
        message: `Could not ${operation}: the trace database at ${redacted} is unreachable (${cause.message}). Records wait in the spool until it is back.`,
        location: redacted,
        cause: error,
        retryable: true,
      });
    }
    if (cause.sqlState !== undefined && /^(28|3D)/.test(cause.sqlState)) {
      // Reached, but the login or the database name was turned down: check the URL.
      return new TraceStoreError({
        code: "trace_database_unreachable",
        message: `Could not ${operation}: the trace database at ${redacted} turned the login down (${cause.message}, SQLSTATE ${cause.sqlState}). Records wait in the spool.`,
        location: redacted,
        cause: error,
        retryable: true,
      });
    }
    return new TraceStoreError({
      code: "trace_database_failed",
      message: cause.driverFailure
        ? `Could not ${operation} in the trace database at ${redacted}: the PostgreSQL driver failed (${cause.message}), not the connection. Records wait in the spool.`
        : `Could not ${operation} in the trace database at ${redacted}: the server answered with an error (${cause.message}, SQLSTATE ${cause.sqlState}). Records wait in the spool.`,
      location: redacted,
      cause: error,
      retryable: cause.driverFailure,
    });
  };
  return openPool({ connectionString: url }, { driver: "postgres", location: redacted, migrationsFolder, options, fail });
}

/** A small `pg` pool on a PostgreSQL server (or a PGlite folder's trace server), migrated. */
async function openPool(
  connection: { connectionString: string } | { host: string; port: number; user: string; database: string },
  target: {
    driver: TraceDatabaseDriver;
    location: string;
    migrationsFolder: string;
    options: TraceDatabaseOptions;
    fail: (error: unknown, operation: string, statement?: TraceStatement) => Error;
  },
): Promise<TraceDatabase> {
  const { options, fail, migrationsFolder } = target;
  // `pg` is CommonJS: it is required whole before Drizzle's driver imports it. Imported by two
  // modules at once (Promise.all below), Node 20 now and then gave one of them its exports
  // before they were filled (`pg.Pool is not a constructor`, `types` undefined in Drizzle).
  // By its real path: after a connection to an already running trace server, Node's CommonJS
  // resolution was seen to keep the workspace's symbolic link to pg (pg then fails to find
  // its own pg-types, or is loaded twice and Drizzle sees a copy whose exports are unfilled).
  const require = createRequire(import.meta.url);
  const pg = require(realpathSync(require.resolve("pg"))) as typeof import("pg");
  const [{ drizzle }, { migrate }] = await Promise.all([import("drizzle-orm/node-postgres"), import("drizzle-orm/node-postgres/migrator")]);
  const pool = new pg.Pool({
    ...connection,
    max: 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    query_timeout: options.statementTimeoutMs ?? 30_000,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
  });
  // A connection that breaks (the server dies or restarts) must not crash the process: pg
  // emits `error` on an idle pool's client (the pool's listener), and on a checked-out
  // client, where pg-pool listens to nothing. Every client gets its own listener when the
  // pool makes it; the failed query rejects all the same, and the flush sees an outage.
  pool.on("error", () => undefined);
  pool.on("connect", (client) => {
    client.on("error", () => undefined);
  });
  try {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query("select pg_advisory_lock($1)", [migrationLockKey]);
      try {
        await migrate(drizzle({ client }), { migrationsFolder });
      } finally {
        // The session's lock ends with the session when the connection is gone. (Through a
        // PGlite folder's server all clients share one session, so there the lock excludes
        // nobody: the server migrated at start, and a migration runs as one transaction.)
        await client.query("select pg_advisory_unlock($1)", [migrationLockKey]);
      }
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A client that failed is destroyed, not handed back to the pool.
      client.release(broken);
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw fail(error, "open and migrate the trace database");
  }
  return createDrizzleTraceDatabase({
    driver: target.driver,
    location: target.location,
    database: drizzle({ client: pool }) as unknown as PgDatabase<PgQueryResultHKT>,
    fail,
    close: async () => {
      await pool.end().catch(() => undefined);
    },
  });
}

/** The database refused the data of a statement: `trace_record_rejected`, not retryable. */
function refused(error: unknown, operation: string, location: string, message: string): TraceStoreError {
  return new TraceStoreError({
    code: "trace_record_rejected",
    message: `Could not ${operation}: the trace database at ${location} refused the data (${message}).`,
    location,
    cause: error,
    retryable: false,
  });
}
