import type { ToolInvocationRecord } from "./tool-invocation-record.js";

/**
 * Where tool invocation records go. `record` may fail; wrap a store with
 * `createTraceRecorder` so that a failure never reaches the lookup (R29). A store should
 * write each record id at most once (an upsert), so that a write retried after a failure
 * that had in fact been stored does not duplicate it.
 */
export interface TraceStore {
  record(invocation: ToolInvocationRecord): Promise<void>;
}
