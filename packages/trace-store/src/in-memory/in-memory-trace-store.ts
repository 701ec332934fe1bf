import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import type { TraceStore } from "../trace-store.js";

/** A `TraceStore` that keeps records in memory, for tests and demos. */
export interface InMemoryTraceStore extends TraceStore {
  /** Every record, in the order first recorded (copies). */
  list(): ToolInvocationRecord[];
  /** The record with this id (a copy), if any. */
  get(id: string): ToolInvocationRecord | undefined;
  clear(): void;
  readonly size: number;
}
