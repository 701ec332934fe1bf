import { appendFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import { TraceStoreError } from "../errors/trace-store-error.js";
import type { FlushContext } from "./flush-trace-spool.js";
import { rejectedFile, type SpoolSegment } from "./spool-segment.js";
import type { TraceFlushReport } from "./trace-flush-report.js";

// The flush's handling of records the database refuses (`trace_record_rejected`): a batch
// is retried one record at a time, the refused records are quarantined in
// `spool/rejected.jsonl`, and the flush reports them once.

/** Tells `onRejected` once per flush how many records the database refused. */
export function reportQuarantine(
  directory: string,
  report: TraceFlushReport,
  firstRefusal: string[],
  onRejected: ((error: TraceStoreError) => void) | undefined,
): void {
  if (report.quarantined === 0) return;
  const count = report.quarantined === 1 ? "1 trace record was" : `${report.quarantined} trace records were`;
  try {
    onRejected?.(
      new TraceStoreError({
        code: "trace_record_rejected",
        message: `${count} refused by the database and kept in ${join(directory, rejectedFile)}; the records after ${report.quarantined === 1 ? "it" : "them"} were stored. First: ${firstRefusal[0] ?? ""}`,
        location: join(directory, rejectedFile),
        retryable: false,
      }),
    );
  } catch {
    // A failing handler must not stop the flush.
  }
}

/** A record read from a segment, and the byte offset of its line. */
export interface SpooledRecord {
  record: ToolInvocationRecord;
  offset: number;
}

/**
 * Inserts one batch. When the database refuses its data (`trace_record_rejected`), each
 * record is inserted alone, and those it still refuses are quarantined; any other failure
 * (an outage) stops the flush.
 */
export async function insertSpooledBatch(segment: SpoolSegment, batch: SpooledRecord[], context: FlushContext): Promise<void> {
  const { report } = context;
  // Of two records with one id the first is kept, as across batches (an id present is left alone).
  const ids = new Set<string>();
  const unique = batch.filter((entry) => !ids.has(entry.record.id) && Boolean(ids.add(entry.record.id)));
  try {
    report.inserted += await context.insert(unique.map((entry) => entry.record));
    report.flushed += batch.length;
    return;
  } catch (error) {
    if (!refusedData(error)) throw error;
  }
  for (const entry of unique) {
    try {
      report.inserted += await context.insert([entry.record]);
      report.flushed += batch.filter((other) => other.record.id === entry.record.id).length;
    } catch (error) {
      if (!refusedData(error)) throw error;
      quarantine(segment, entry, error as TraceStoreError, context);
    }
  }
}

function refusedData(error: unknown): boolean {
  return TraceStoreError.isInstance(error) && error.code === "trace_record_rejected";
}

/** Keeps a record the database refused in `rejected.jsonl`, with why; the flush goes on. */
function quarantine(segment: SpoolSegment, entry: SpooledRecord, error: TraceStoreError, context: FlushContext): void {
  const { directory, report } = context;
  const cause = error.message;
  appendFileSync(
    join(directory, rejectedFile),
    `${JSON.stringify({ segment: segment.name, offset: entry.offset, reason: cause, record: entry.record, at: new Date().toISOString() })}\n`,
  );
  report.quarantined += 1;
  if (context.firstRefusal.length === 0) context.firstRefusal.push(`${entry.record.id}: ${cause}`);
}
