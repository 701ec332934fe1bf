import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { TraceStoreFailureCode } from "./trace-store-error-code.js";

const marker = "lookup-knowledge.error.trace-store";
const symbol = Symbol.for(marker);

/**
 * An error of the durable trace store. `location` names the database (a folder, or a
 * PostgreSQL URL without its password) or the spool file concerned.
 */
export class TraceStoreError extends LookupKnowledgeError<TraceStoreFailureCode> {
  private readonly [symbol] = true;
  readonly location: string;

  constructor(options: { code: TraceStoreFailureCode; message: string; location: string; cause?: unknown; retryable?: boolean }) {
    super({
      code: options.code,
      message: options.message,
      cause: options.cause,
      retryable:
        options.retryable ??
        (options.code !== "trace_spool_line_skipped" &&
          options.code !== "trace_record_rejected" &&
          options.code !== "trace_database_package_missing"),
    });
    this.name = "TraceStoreError";
    this.location = options.location;
  }

  static override isInstance(error: unknown): error is TraceStoreError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
