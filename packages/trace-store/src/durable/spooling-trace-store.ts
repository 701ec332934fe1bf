import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import type { TraceStore } from "../trace-store.js";

/**
 * A trace store that holds a record durably once `append` returns: it writes the record to
 * a spool file synchronously (the spool of `createTraceSpool`, the durable store). The
 * recorder hands such a store each record through `append`, with no write timeout and no
 * queue in front: the spool is the durable path. Only a record `append` refused (the spool
 * could not be written) waits in the recorder's queue.
 */
export interface SpoolingTraceStore extends TraceStore {
  /** Says that `append` exists and is durable. */
  readonly durable: true;
  /** Appends one record; throws (a `TraceStoreError`) when it cannot, and then holds nothing of it. */
  append(invocation: ToolInvocationRecord): void;
}

/** Whether `store` declares itself a `SpoolingTraceStore`. */
export function isSpoolingTraceStore(store: TraceStore): store is SpoolingTraceStore {
  const candidate = store as Partial<SpoolingTraceStore> | null | undefined;
  return candidate?.durable === true && typeof candidate.append === "function";
}
