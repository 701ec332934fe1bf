import { appendFileSync, closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { acquireFileLock } from "../acquire-file-lock.js";
import { parseToolInvocationRecord } from "../parse-tool-invocation-record.js";
import type { ToolInvocationRecord } from "../tool-invocation-record.js";
import { TraceStoreError } from "../trace-store-error.js";
import {
  listSpoolSegments,
  progressFile,
  rejectedFile,
  segmentWriterAlive,
  spoolDirectory,
  type SpoolSegment,
} from "./spool-segment.js";
import type { TraceFlushReport } from "./trace-flush-report.js";

const newline = 0x0a;
/** The most characters of a skipped line quoted in its report. */
const quotedLength = 200;

/**
 * Moves the spooled records of the trace folder `directory` into a database through
 * `insert`, exactly once and in order:
 *
 * 1. Takes the spool's flush lock (`spool/flush.lock`), so there is one flusher at a time;
 *    waits up to `lockWaitMs` (default 10 s) for another, then throws `trace_store_locked`.
 * 2. Reads each segment, oldest first, from the offset `progress.json` says is already in
 *    the database, up to its last complete line.
 * 3. Inserts the records in batches of `batchSize` (default 500); `insert` must leave an id
 *    already present alone (`on conflict (id) do nothing`). After each batch is committed,
 *    the segment's offset is advanced past it (a new `progress.json`, renamed into place).
 * 4. A segment whose writer is done (sealed, or its process died) and that is wholly in the
 *    database is removed. A torn last line of such a segment (a crash mid-write) is skipped.
 *
 * A crash before the offset is advanced makes the next flush insert those records again,
 * and the database ignores them: nothing is lost and nothing is duplicated. A line that is
 * not a record is skipped, kept in `spool/rejected.jsonl` and reported to `onSkipped`; the
 * lines after it go on. When `insert` fails (the database is unreachable), the flush stops
 * and rejects with that error; what was not committed stays in the spool for the next one.
 */
export async function flushTraceSpool(input: {
  directory: string;
  insert: (records: ToolInvocationRecord[]) => Promise<number>;
  batchSize?: number;
  lockWaitMs?: number;
  onSkipped?: (error: TraceStoreError) => void;
}): Promise<TraceFlushReport> {
  const directory = spoolDirectory(input.directory);
  const batchSize = input.batchSize ?? 500;
  const report: TraceFlushReport = { flushed: 0, inserted: 0, skipped: [], segmentsRemoved: 0 };
  if (listSpoolSegments(directory).length === 0) return report;
  const release = await acquireFileLock(join(directory, "flush.lock"), {
    waitMs: input.lockWaitMs ?? 10_000,
    what: `The trace spool ${directory}`,
  });
  try {
    const progress = readProgress(directory);
    const segments = listSpoolSegments(directory);
    const names = new Set(segments.map((segment) => segment.name));
    for (const name of Object.keys(progress)) if (!names.has(name)) delete progress[name];
    for (const segment of segments) {
      await flushSegment(segment, { directory, progress, batchSize, report, insert: input.insert, onSkipped: input.onSkipped });
    }
    writeProgress(directory, progress);
  } finally {
    await release();
  }
  return report;
}

async function flushSegment(
  segment: SpoolSegment,
  context: {
    directory: string;
    progress: Record<string, number>;
    batchSize: number;
    report: TraceFlushReport;
    insert: (records: ToolInvocationRecord[]) => Promise<number>;
    onSkipped: ((error: TraceStoreError) => void) | undefined;
  },
): Promise<void> {
  const { directory, progress, report } = context;
  // Decided before reading: a writer that is done now cannot add lines after the read.
  const finished = !segmentWriterAlive(segment);
  const start = progress[segment.name] ?? 0;
  const bytes = readFrom(segment.file, start);
  if (bytes === undefined) return; // sealed (renamed) since it was listed: the next flush reads it
  let batch: ToolInvocationRecord[] = [];
  let batchEnd = start;
  let lineStart = 0;

  const commit = async (): Promise<void> => {
    if (batch.length > 0) {
      const unique = [...new Map(batch.map((record) => [record.id, record])).values()];
      report.inserted += await context.insert(unique);
      report.flushed += batch.length;
      batch = [];
    }
    if (batchEnd !== (progress[segment.name] ?? 0)) {
      progress[segment.name] = batchEnd;
      writeProgress(directory, progress);
    }
  };
  const skip = (offset: number, text: string, reason: string): void => {
    const skipped = { segment: segment.name, offset, reason, text: text.slice(0, quotedLength) };
    report.skipped.push(skipped);
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
    if ("reason" in parsed) skip(offset, text, parsed.reason);
    else batch.push(parsed.record);
    if (batch.length >= context.batchSize) await commit();
  }
  await commit();
  if (!finished) return;
  if (lineStart < bytes.length) {
    skip(start + lineStart, bytes.subarray(lineStart).toString("utf8"), "an unfinished last line (the writer stopped mid-write)");
  }
  try {
    unlinkSync(segment.file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  delete progress[segment.name];
  writeProgress(directory, progress);
  report.segmentsRemoved += 1;
}

/** The bytes of `file` from `start` to its current end; undefined when the file is gone. */
function readFrom(file: string, start: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    const from = start <= size ? start : 0;
    const bytes = Buffer.alloc(size - from);
    let read = 0;
    while (read < bytes.length) {
      const count = readSync(fd, bytes, read, bytes.length - read, from + read);
      if (count === 0) break;
      read += count;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
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
