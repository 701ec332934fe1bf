import type { ToolInvocationRecord } from "./tool-invocation-record.js";

/** Records tool invocations without ever failing or blocking the lookup (R29). */
export interface TraceRecorder {
  /**
   * Hands a record to the store at once (after retrying waiting records, oldest first).
   * Never throws and never waits; a failure is reported and the record kept for a retry.
   */
  record(invocation: ToolInvocationRecord): void;
  /**
   * Waits for every write in flight, retries every waiting record once, and waits again.
   * Never rejects. `recorded`: records written since the recorder was created; `pending`:
   * records not written yet.
   */
  flush(): Promise<{ recorded: number; pending: number }>;
  /** Records handed over but not yet confirmed written: in flight or waiting for a retry. */
  readonly pending: number;
  /** The same as `flush`, for shutdown. */
  close(): Promise<void>;
}
