import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";

/** Records tool invocations without ever failing or blocking the lookup (R29). */
export interface TraceRecorder {
  /**
   * Hands a record to the store at once, or, while earlier records wait for the store to
   * recover, appends it to them (and starts a retry pass when the backoff delay has
   * passed). Never throws and never waits.
   */
  record(invocation: ToolInvocationRecord): void;
  /**
   * Waits for the writes in flight (each bounded by the write timeout), then runs one retry
   * pass over the waiting records, oldest first, regardless of the backoff delay, stopping
   * at the first failure. Always settles, never rejects. `recorded`: records written since
   * the recorder was created; `pending`: records not written yet.
   */
  flush(): Promise<{ recorded: number; pending: number }>;
  /** Records handed over but not yet confirmed written: in flight or waiting for a retry. */
  readonly pending: number;
  /** The same as `flush`, for shutdown. */
  close(): Promise<void>;
}
