import { LookupKnowledgeError } from "@lookup-knowledge/core";

const marker = "lookup-knowledge.error.trace-store";
const symbol = Symbol.for(marker);

/** What went wrong in the durable trace store. */
export type TraceStoreErrorCode =
  /** The PostgreSQL server did not answer, refused the connection or the login. Retryable. */
  | "trace_database_unreachable"
  /**
   * The database or its driver failed otherwise: an error with no SQLSTATE that is no known
   * network error (a driver or serialiser bug), or a server error while opening or migrating.
   * The records wait in the spool; the flusher tries again.
   */
  | "trace_database_failed"
  /** The embedded (PGlite) database could not be opened or used, or another process has it open. Retryable. */
  | "trace_database_unavailable"
  /** Another process is flushing the same spool (its flush lock is held). Retryable. */
  | "trace_store_locked"
  /** A record could not be appended to the spool (disk full, no permission). Retryable. */
  | "trace_spool_write_failed"
  /** A spool line that is not a record (a torn last line after a crash, a damaged file); skipped. */
  | "trace_spool_line_skipped"
  /** The database refused a record's data (a value out of range, text it cannot hold); the record is quarantined. Not retryable. */
  | "trace_record_rejected";

/**
 * An error of the durable trace store. `location` names the database (a folder, or a
 * PostgreSQL URL without its password) or the spool file concerned.
 */
export class TraceStoreError extends LookupKnowledgeError {
  private readonly [symbol] = true;
  declare readonly code: TraceStoreErrorCode;
  readonly location: string;

  constructor(options: { code: TraceStoreErrorCode; message: string; location: string; cause?: unknown; retryable?: boolean }) {
    super({
      code: options.code,
      message: options.message,
      cause: options.cause,
      retryable: options.retryable ?? (options.code !== "trace_spool_line_skipped" && options.code !== "trace_record_rejected"),
    });
    this.name = "TraceStoreError";
    this.location = options.location;
  }

  static override isInstance(error: unknown): error is TraceStoreError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
