import { LookupKnowledgeError, errorMessage } from "@lookup-knowledge/core";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";
import type { TraceRecordErrorCode } from "../errors/trace-store-error-code.js";

const marker = "lookup-knowledge.error.trace-record";
const symbol = Symbol.for(marker);

/**
 * A tool invocation record could not be written (R29).
 *
 * - `trace_record_failed`: the store threw, rejected or did not answer in time, and an
 *   outage began; the recorder keeps this record and later ones and retries them with
 *   backoff (`retryable` is true). Reported once per outage, not once per failed retry.
 * - `trace_record_dropped`: too many records were waiting, and this one, the oldest, was
 *   given up (`retryable` is false). `invocation` holds it, so a handler can still save it
 *   elsewhere.
 */
export class TraceRecordError extends LookupKnowledgeError<TraceRecordErrorCode> {
  private readonly [symbol] = true;
  /** The id of the record concerned. */
  readonly recordId: string;
  /** The record concerned. */
  readonly invocation: ToolInvocationRecord;
  /** What the store threw or rejected with (the last failure, for a dropped record). */
  override readonly cause: unknown;

  constructor(options: {
    code: TraceRecordErrorCode;
    invocation: ToolInvocationRecord;
    cause: unknown;
    /** For a dropped record: the limit of waiting records that was passed. */
    maxPending?: number;
  }) {
    const id = options.invocation.id;
    const failed = options.code === "trace_record_failed";
    super({
      code: options.code,
      message: failed
        ? `Could not record tool invocation ${id}: ${errorMessage(options.cause)}. The trace store looks unavailable: ` +
          "this record and the ones after it are kept and retried with backoff; further failures are not reported " +
          "until it recovers."
        : `Dropped tool invocation ${id}: more than ${options.maxPending ?? "the allowed number of"} records were ` +
          `waiting for the trace store (last error: ${errorMessage(options.cause)}).`,
      cause: options.cause,
      retryable: failed,
    });
    this.name = "TraceRecordError";
    this.recordId = id;
    this.invocation = options.invocation;
    this.cause = options.cause;
  }

  static override isInstance(error: unknown): error is TraceRecordError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
