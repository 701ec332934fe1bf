/** Where the trace database is (see `openTraceDatabase`). */
export interface TraceDatabaseOptions {
  /** A `postgres://` URL: PostgreSQL through `pg`. Without it, PGlite in `directory`. */
  url?: string;
  /** The PGlite folder (made when missing). Needed without `url`. */
  directory?: string;
  /** How long to wait for another process that has the PGlite folder open. Default 15 s. */
  lockWaitMs?: number;
  /** PostgreSQL: how long to wait for a connection, and for a statement. Defaults 5 s and 30 s. */
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** Another migrations folder (tests open a database at an older schema with it). */
  migrationsFolder?: string;
}
