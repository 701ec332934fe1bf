import type { TraceDatabase } from "./trace-database.js";
import type { TraceDatabaseOptions } from "./trace-database-options.js";

/**
 * Opens the trace database and migrates it to the current schema with Drizzle's migrator
 * (migrations only ever add; a database at an older version is brought forward, its rows
 * kept). The drivers are loaded here, on first use, so importing the package stays light.
 *
 * - PGlite (embedded, default): Postgres in WASM, kept in `directory`. One process at a time
 *   has a folder open: a lock beside it (`<directory>.lock`) is taken first and waited for.
 * - PostgreSQL (`url`): a small `pg` pool. Several processes may migrate at once: they take
 *   turns on an advisory lock.
 *
 * Throws `TraceStoreError`: `trace_database_unreachable` (PostgreSQL refused, timed out or
 * turned the login down), `trace_database_failed` (PostgreSQL answered the migration with an
 * error, or the driver failed by itself), `trace_database_unavailable` (the PGlite folder cannot be opened,
 * also when another process keeps the PGlite folder open past `lockWaitMs`); a bad URL throws
 * `ConfigurationError` naming `DATABASE_URL`.
 */
export async function openTraceDatabase(options: TraceDatabaseOptions): Promise<TraceDatabase> {
  const { connectTraceDatabase } = await import("./connect-trace-database.js");
  return connectTraceDatabase(options);
}
