import type { PendingTraceRecord } from "../record/pending-trace-record.js";
import { TraceRecordError } from "../record/trace-record-error.js";

/** The trace recorder's records waiting for a retry pass, in call order, at most `maxPending` of them. */
export interface WaitingRecords {
  readonly length: number;
  /** Takes the oldest waiting record out. */
  shift(): PendingTraceRecord | undefined;
  /** Puts `record` in by call order, dropping the oldest beyond `maxPending`. */
  enqueue(record: PendingTraceRecord): void;
  /** A write of `record` failed with `cause`: kept on it, and as the cause of a dropped record that never failed itself. */
  noteFailure(record: PendingTraceRecord, cause: unknown): void;
}

/** An empty waiting queue; each record it drops goes to `report` as a `trace_record_dropped` error holding it. */
export function createWaitingRecords(maxPending: number, report: (error: TraceRecordError) => void): WaitingRecords {
  const waiting: PendingTraceRecord[] = [];
  let lastCause: unknown;
  return {
    get length(): number {
      return waiting.length;
    },
    shift: () => waiting.shift(),
    enqueue(record: PendingTraceRecord): void {
      let index = waiting.length;
      while (index > 0 && (waiting[index - 1] as PendingTraceRecord).sequence > record.sequence) index -= 1;
      waiting.splice(index, 0, record);
      while (waiting.length > maxPending) {
        const dropped = waiting.shift() as PendingTraceRecord;
        report(
          new TraceRecordError({
            code: "trace_record_dropped",
            invocation: dropped.invocation,
            cause: dropped.lastError ?? lastCause,
            maxPending,
          }),
        );
      }
    },
    noteFailure(record: PendingTraceRecord, cause: unknown): void {
      record.lastError = cause;
      lastCause = cause;
    },
  };
}
