import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import { TraceRecordError } from "../record/trace-record-error.js";

/**
 * The trace recorder's outage: begun by a failed write, reported once, ended when the waiting
 * queue empties. Its backoff is the wait between retry passes: it starts at the first delay and
 * doubles per failed pass up to the longest. No timer: `due` is asked when a record comes.
 */
export interface RecorderOutage {
  /** An outage was reported and has not ended. */
  readonly failing: boolean;
  /** Whether the wait after the last failure is over (always, before the first one). */
  due(): boolean;
  /** A direct write failed: unless an outage is on, one begins (first delay) and is reported as `trace_record_failed`. */
  begin(invocation: ToolInvocationRecord, cause: unknown): void;
  /** A retry pass failed: the next waits the current delay, which then doubles up to the longest. */
  schedule(): void;
  /** The outage is over: back to the first delay, and no wait. */
  end(): void;
}

/** No outage yet; `report` is told when one begins. */
export function createRecorderOutage(options: {
  firstDelayMs: number;
  longestDelayMs: number;
  report: (error: TraceRecordError) => void;
}): RecorderOutage {
  const { firstDelayMs, longestDelayMs } = options;
  let failing = false;
  let delayMs = firstDelayMs;
  let retryAt = 0;

  function schedule(): void {
    retryAt = Date.now() + delayMs;
    delayMs = Math.min(delayMs * 2, longestDelayMs);
  }

  return {
    get failing(): boolean {
      return failing;
    },
    due: () => Date.now() >= retryAt,
    begin(invocation: ToolInvocationRecord, cause: unknown): void {
      if (failing) return;
      failing = true;
      delayMs = firstDelayMs;
      schedule();
      options.report(new TraceRecordError({ code: "trace_record_failed", invocation, cause }));
    },
    schedule,
    end(): void {
      failing = false;
      delayMs = firstDelayMs;
      retryAt = 0;
    },
  };
}
