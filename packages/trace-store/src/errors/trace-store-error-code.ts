/**
 * Every code an error of trace-store carries: the codes of `TraceStoreError` (the durable
 * store, its spool and its database) and of `TraceRecordError` (the recorder).
 */
export type TraceStoreErrorCode =
  /** The PostgreSQL server did not answer, refused the connection or the login. Retryable. */
  | "trace_database_unreachable"
  /**
   * The database or its driver failed otherwise: an error with no SQLSTATE that is no known
   * network error (a driver or serialiser bug), or a server error while opening or migrating.
   * The records wait in the spool; the flusher tries again.
   */
  | "trace_database_failed"
  /**
   * The packages the trace database needs (PGlite, Drizzle, `pg`: optional peer dependencies)
   * are not installed; the message names them and the install command. Records wait in the
   * spool. Not retryable.
   */
  | "trace_database_package_missing"
  /** The embedded (PGlite) database could not be opened or used, or another process has it open. Retryable. */
  | "trace_database_unavailable"
  /** Another process is flushing the same spool (its flush lock is held). Retryable. */
  | "trace_store_locked"
  /** A record could not be appended to the spool (disk full, no permission). Retryable. */
  | "trace_spool_write_failed"
  /**
   * The spool holds `maxSpoolBytes` of records this process appended that are not yet in the
   * database (a long outage, or lookups faster than flushes): the record is refused, and a
   * recorder keeps it in memory (up to its `maxPending`) until the spool has room. Retryable.
   */
  | "trace_spool_full"
  /** A spool line that is not a record (a torn last line after a crash, a damaged file); skipped. */
  | "trace_spool_line_skipped"
  /** The database refused a record's data (a value out of range, text it cannot hold); the record is quarantined. Not retryable. */
  | "trace_record_rejected"
  /** The recorder: a write failed and an outage began; the record is kept and retried. Retryable. */
  | "trace_record_failed"
  /** The recorder: too many records were waiting, and the oldest was given up. Not retryable. */
  | "trace_record_dropped";

/** The codes of `TraceRecordError`. */
export type TraceRecordErrorCode = Extract<TraceStoreErrorCode, "trace_record_failed" | "trace_record_dropped">;

/** The codes of `TraceStoreError`: every code but the recorder's. */
export type TraceStoreFailureCode = Exclude<TraceStoreErrorCode, TraceRecordErrorCode>;
