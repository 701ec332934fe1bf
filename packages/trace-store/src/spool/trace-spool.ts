import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import type { SpoolingTraceStore } from "../durable/spooling-trace-store.js";

/** Appends tool invocation records to the spool of a trace folder (see `createTraceSpool`). */
export interface TraceSpool extends SpoolingTraceStore {
  /** The trace folder. */
  readonly directory: string;
  /** Bytes this spool has appended since it was made. */
  readonly appendedBytes: number;
  /** Appends one record as one line; throws `TraceStoreError` when it cannot. */
  append(invocation: ToolInvocationRecord): void;
  /** `append`, as a promise: resolved once the line is written, rejected when it could not be. */
  record(invocation: ToolInvocationRecord): Promise<void>;
  /** fsyncs what was appended since the last fsync. */
  flush(): Promise<void>;
  /** fsyncs and seals the segment; later appends throw. */
  close(): Promise<void>;
}
