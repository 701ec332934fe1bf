import { appendFileSync, closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { acquireFileLock, defaultLockWaitMs } from "../durable/acquire-file-lock.js";
import { parseToolInvocationRecord } from "../record/parse-tool-invocation-record.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import { TraceStoreError } from "../errors/trace-store-error.js";
import {
  defaultForeignWriterIdleMs,
  listSpoolSegments,
  progressFile,
  rejectedFile,
  segmentWriterAlive,
  spoolDirectory,
  type SpoolSegment,
} from "./spool-segment.js";
import { insertSpooledBatch, reportQuarantine, type SpooledRecord } from "./insert-spooled-batch.js";
import type { TraceFlushReport } from "./trace-flush-report.js";

const newline = 0x0a;
/** The most characters of a skipped line quoted in its report. */
const quotedLength = 200;

/**
 * Moves the spooled records of the trace folder `directory` into a database through
 * `insert`, exactly once and in order:
 *
 * 1. Takes the spool's flush lock (`spool/flush.lock`), so there is one flusher at a time;
 *    waits up to `lockWaitMs` (default 15 s) for another, then throws `trace_store_locked`.
 * 2. Reads each segment, oldest first, from the offset `progress.json` says is already in
 *    the database, up to its last complete line.
 * 3. Inserts the records in batches of `batchSize` (default 500); `insert` must leave an id
 *    already present alone (`on conflict (id) do nothing`). After each batch is committed,
 *    the segment's offset is advanced past it (a new `progress.json`, renamed into place).
 * 4. A segment whose writer is done and that is wholly in the database is removed: sealed,
 *    or its process died (a process of this host and PID namespace), or, for a writer of
 *    another host or PID namespace (whose pid means nothing here), unchanged for
 *    `foreignWriterIdleMs` (default 10 minutes). Lines appended before the removal are still
 *    read from the open file; a writer that appends after it writes the line again into a
 *    new segment. A torn last line of such a segment (a crash mid-write) is skipped.
 *
 * A crash before the offset is advanced makes the next flush insert those records again,
 * and the database ignores them: nothing is lost and nothing is duplicated. A line that is
 * not a record is skipped, kept in `spool/rejected.jsonl` and reported to `onSkipped`; the
 * lines after it go on. A record the database refuses (`trace_record_rejected`: a value out
 * of range) is quarantined: kept in `rejected.jsonl` with the reason, counted in
 * `quarantined` and reported once per flush to `onRejected`; the records after it go on.
 * When `insert` fails otherwise (the database is unreachable), the flush stops
 * and rejects with that error; what was not committed stays in the spool for the next one.
 */
export async function flushTraceSpool(input: {
  directory: string;
  insert: (records: ToolInvocationRecord[]) => Promise<number>;
  batchSize?: number;
  lockWaitMs?: number;
  onSkipped?: (error: TraceStoreError) => void;
  /** Told once per flush of the records the database refused (`trace_record_rejected`); they are kept in `spool/rejected.jsonl`. */
  onRejected?: (error: TraceStoreError) => void;
  /**
   * An open segment of another host or PID namespace counts as finished once unchanged for
   * this long (ms). Default 10 minutes.
   */
  foreignWriterIdleMs?: number;
}): Promise<TraceFlushReport> {
  const directory = spoolDirectory(input.directory);
  const batchSize = input.batchSize ?? 500;
  const report: TraceFlushReport = { flushed: 0, inserted: 0, skipped: [], quarantined: 0, segmentsRemoved: 0 };
  if (listSpoolSegments(directory).length === 0) return report;
  const firstRefusal: string[] = [];
  const release = await acquireFileLock(join(directory, "flush.lock"), {
    waitMs: input.lockWaitMs ?? defaultLockWaitMs,
    what: `The trace spool ${directory}`,
  });
  try {
    const progress = readProgress(directory);
    const segments = listSpoolSegments(directory);
    const names = new Set(segments.map((segment) => segment.name));
    for (const name of Object.keys(progress)) if (!names.has(name)) delete progress[name];
    for (const segment of segments) {
      await flushSegment(segment, {
        directory,
        progress,
        batchSize,
        report,
        insert: input.insert,
        onSkipped: input.onSkipped,
        firstRefusal,
        foreignWriterIdleMs: input.foreignWriterIdleMs ?? defaultForeignWriterIdleMs,
      });
    }
    writeProgress(directory, progress);
  } finally {
    await release();
    reportQuarantine(directory, report, firstRefusal, input.onRejected);
  }
  return report;
}

/** What a flush carries from segment to segment. */
export interface FlushContext {
  directory: string;
  progress: Record<string, number>;
  batchSize: number;
  report: TraceFlushReport;
  insert: (records: ToolInvocationRecord[]) => Promise<number>;
  onSkipped: ((error: TraceStoreError) => void) | undefined;
  /** The id and cause of the first record the database refused in this flush. */
  firstRefusal: string[];
}

async function flushSegment(segment: SpoolSegment, context: FlushContext & { foreignWriterIdleMs: number }): Promise<void> {
  const { directory, progress, report } = context;
  // Decided before reading: a writer that is done now cannot add lines after the read.
  const finished = !segmentWriterAlive(segment, { foreignWriterIdleMs: context.foreignWriterIdleMs });
  let fd: number;
  try {
    fd = openSync(segment.file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // sealed (renamed) since it was listed: the next flush reads it
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return; // something else under a segment's name (a folder): not a segment
    let start = progress[segment.name] ?? 0;
    if (start > stat.size) start = 0; // not this file's offset: read it all again; the database ignores repeats
    let position = await flushLines(segment, fd, start, context);
    if (!finished) return;
    try {
      unlinkSync(segment.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    // A writer judged finished that appended after all (a writer of another host waking up
    // after the idle window) wrote before the unlink, into this file, which the open `fd`
    // still reads; one that appends after it sees its file gone and writes the line again.
    position = await flushLines(segment, fd, position, context);
    const size = fstatSync(fd).size;
    if (position < size) {
      const rest = readRange(fd, position, size);
      skip(segment, position, rest.toString("utf8"), "an unfinished last line (the writer stopped mid-write)", context);
    }
    delete progress[segment.name];
    writeProgress(directory, progress);
    report.segmentsRemoved += 1;
  } finally {
    closeSync(fd);
  }
}

/**
 * Inserts the complete lines of the segment open as `fd` from byte `start` to its current
 * end, advancing its offset in `progress.json` after each batch; returns the offset after
 * the last complete line.
 */
async function flushLines(segment: SpoolSegment, fd: number, start: number, context: FlushContext): Promise<number> {
  const { directory, progress } = context;
  const bytes = readRange(fd, start, fstatSync(fd).size);
  let batch: SpooledRecord[] = [];
  let batchEnd = start;
  let lineStart = 0;

  const commit = async (): Promise<void> => {
    if (batch.length > 0) {
      await insertSpooledBatch(segment, batch, context);
      batch = [];
    }
    if (batchEnd !== (progress[segment.name] ?? 0)) {
      progress[segment.name] = batchEnd;
      writeProgress(directory, progress);
    }
  };

  while (lineStart < bytes.length) {
    const end = bytes.indexOf(newline, lineStart);
    if (end === -1) break;
    const text = bytes.subarray(lineStart, end).toString("utf8");
    const offset = start + lineStart;
    lineStart = end + 1;
    batchEnd = start + lineStart;
    if (text.trim() === "") continue;
    const parsed = parseToolInvocationRecord(text);
    if ("reason" in parsed) skip(segment, offset, text, parsed.reason, context);
    else batch.push({ record: parsed.record, offset });
    if (batch.length >= context.batchSize) await commit();
  }
  await commit();
  return batchEnd;
}

/** Reports a line that is not a record and keeps it in `rejected.jsonl`. */
function skip(
  segment: SpoolSegment,
  offset: number,
  text: string,
  reason: string,
  context: { directory: string; report: TraceFlushReport; onSkipped: ((error: TraceStoreError) => void) | undefined },
): void {
  const { directory } = context;
  const skipped = { segment: segment.name, offset, reason, text: text.slice(0, quotedLength) };
  context.report.skipped.push(skipped);
  appendFileSync(join(directory, rejectedFile), `${JSON.stringify({ ...skipped, text, at: new Date().toISOString() })}\n`);
  try {
    context.onSkipped?.(
      new TraceStoreError({
        code: "trace_spool_line_skipped",
        message: `Skipped a spool line that is not a trace record (${segment.name} at byte ${offset}: ${reason}); it is kept in ${join(directory, rejectedFile)}.`,
        location: segment.file,
      }),
    );
  } catch {
    // A failing handler must not stop the flush.
  }
}

/** The bytes of the file open as `fd` from `from` to `to`. */
function readRange(fd: number, from: number, to: number): Buffer {
  const bytes = Buffer.alloc(Math.max(0, to - from));
  let read = 0;
  while (read < bytes.length) {
    const count = readSync(fd, bytes, read, bytes.length - read, from + read);
    if (count === 0) break;
    read += count;
  }
  return bytes.subarray(0, read);
}

function readProgress(directory: string): Record<string, number> {
  let text: string;
  try {
    text = readFileSync(join(directory, progressFile), "utf8");
  } catch {
    return {};
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== "object" || value === null) return {};
    const progress: Record<string, number> = {};
    for (const [name, offset] of Object.entries(value)) {
      if (Number.isSafeInteger(offset) && (offset as number) >= 0) progress[name] = offset as number;
    }
    return progress;
  } catch {
    // Unreadable progress: start over; the database ignores what it already has.
    return {};
  }
}

function writeProgress(directory: string, progress: Record<string, number>): void {
  const file = join(directory, progressFile);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(progress));
  renameSync(temporary, file);
}
