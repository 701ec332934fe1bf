import type { ToolInvocationRecord } from "./tool-invocation-record.js";

/** A record handed to the trace recorder and not confirmed written yet. */
export interface PendingTraceRecord {
  /** The order `record` was called in; waiting records are kept sorted by it. */
  sequence: number;
  invocation: ToolInvocationRecord;
  /** What the last failed write of this record threw or rejected with. */
  lastError?: unknown;
}
