import type { ToolInvocationRecord } from "./record/tool-invocation-record.js";

/**
 * Where tool invocation records go. `record` may fail; wrap a store with
 * `createTraceRecorder` so that a failure never reaches the lookup (R29).
 *
 * A store must be idempotent by record id: the recorder writes a record again after a
 * failure or a timeout, and a timed-out write may still land later. The in-memory store
 * replaces a record with the same id; a database store should insert with
 * `ON CONFLICT (id) DO NOTHING`.
 */
export interface TraceStore {
  record(invocation: ToolInvocationRecord): Promise<void>;
  /**
   * Optional: moves what `record` accepted to where it is kept for good (the spool fsyncs;
   * the durable store moves spooled records into its database). The retriever calls it from
   * `flushTraces` and `close`; it may reject, and the retriever reports that.
   */
  flush?(): Promise<unknown>;
}
