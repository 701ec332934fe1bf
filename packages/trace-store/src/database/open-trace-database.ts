import { parseDatabaseUrl } from "../options/parse-database-url.js";
import type { TraceDatabase } from "./trace-database.js";
import { asMissingPackageError, requireTraceDatabasePackages } from "./trace-database-packages.js";
import type { TraceDatabaseOptions } from "./trace-database-options.js";

/**
 * Opens the trace database and migrates it to the current schema with Drizzle's migrator
 * (migrations only ever add; a database at an older version is brought forward, its rows
 * kept). The drivers are loaded here, on first use, so importing the package stays light.
 *
 * - PGlite (embedded, default): Postgres in WASM, kept in `directory` and served by the
 *   folder's trace server, a process of its own started on first use (`ensureTraceServer`);
 *   this process is its client over a Unix socket, so any number of processes use it at once.
 * - PostgreSQL (`url`): a small `pg` pool. Several processes may migrate at once: they take
 *   turns on an advisory lock.
 *
 * Throws `TraceStoreError`: `trace_database_unreachable` (PostgreSQL refused, timed out or
 * turned the login down), `trace_database_failed` (PostgreSQL answered the migration with an
 * error, or the driver failed by itself), `trace_database_unavailable` (the PGlite folder cannot be opened,
 * also when a process that is no trace server keeps it locked past `lockWaitMs`); a bad URL throws
 * `ConfigurationError` naming `DATABASE_URL`; `trace_database_package_missing` when a package the
 * database needs (PGlite, Drizzle, `pg`: optional peer dependencies) is not installed, naming it
 * and the install command.
 */
export async function openTraceDatabase(options: TraceDatabaseOptions): Promise<TraceDatabase> {
  const driver = options.url === undefined ? "pglite" : "postgres";
  const location = options.url === undefined ? options.directory : parseDatabaseUrl(options.url).redacted;
  if (location !== undefined) requireTraceDatabasePackages(driver, location);
  try {
    const { connectTraceDatabase } = await import("./connect-trace-database.js");
    return await connectTraceDatabase(options);
  } catch (error) {
    throw (location !== undefined && asMissingPackageError(error, driver, location)) || error;
  }
}
