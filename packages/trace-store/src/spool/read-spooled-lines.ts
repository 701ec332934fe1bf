import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseToolInvocationRecord } from "../record/parse-tool-invocation-record.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import { listSpoolSegments, progressFile, spoolDirectory } from "./spool-segment.js";

/**
 * One spooled line with the fields a listing filters and orders by, read without parsing the
 * rest (a record's retrieval details are most of its bytes). `record()` parses and checks the
 * whole line as a flush does: `undefined` for a line a flush would skip.
 */
export interface SpooledLine {
  id: string;
  /** The start time in ms (NaN when it is no time: such a line is no record). */
  time: number;
  found: unknown;
  fallbackReason: unknown;
  query: unknown;
  transformedQuery: unknown;
  record(): ToolInvocationRecord | undefined;
}

/** Where the retrieval details start in a line this package wrote (the fields before them are small). */
const detailsKey = Buffer.from(',"retrievalDetails":', "utf8");
const newline = 0x0a;
/** The fields besides `id` and `createdAt` a listing filters on, read from a line's head. */
const headFields = ["found", "fallbackReason", "query", "transformedQuery"] as const;

/**
 * The lines of the trace folder `directory`'s spool that a flush has not yet moved into the
 * database, as the flush would insert them: each segment oldest first, from the offset
 * `progress.json` gives, complete lines only, and of two lines with one id the first that is
 * a record (the database keeps the first insert). A line that is not a record is left out
 * when `record()` says so. Reads only; takes no lock. Some may be in the database already (a
 * flush that stopped before it advanced the offset); none that a flush finished with is
 * returned. `progress.json` is read first and the segments after: a flush in between moves
 * records into the database that are then read here as well, never the other way round.
 * `undefined` when more than `maxBytes` wait in the spool (reading them would cost more than
 * a flush and a query).
 */
export function readSpooledLines(directory: string, maxBytes = Number.POSITIVE_INFINITY): SpooledLine[] | undefined {
  const folder = spoolDirectory(directory);
  const progress = readProgress(folder);
  const lines: SpooledLine[] = [];
  const byId = new Map<string, number>();
  const segments = listSpoolSegments(folder);
  let pending = 0;
  for (const segment of segments) pending += Math.max(0, fileSize(segment.file) - (progress[segment.name] ?? 0));
  if (pending > maxBytes) return undefined;
  for (const segment of segments) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(segment.file);
    } catch (error) {
      // Sealed (renamed) since it was listed: read under its new name; flushed and removed: in the database.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || segment.sealed) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw error;
      }
      try {
        bytes = readFileSync(join(folder, `${segment.name}.jsonl`));
      } catch {
        continue;
      }
    }
    let start = progress[segment.name] ?? 0;
    if (start > bytes.length) start = 0;
    for (let lineStart = start; lineStart < bytes.length; ) {
      const end = bytes.indexOf(newline, lineStart);
      if (end === -1) break;
      const line = readLine(bytes, lineStart, end);
      lineStart = end + 1;
      if (line === undefined) continue;
      const earlier = byId.get(line.id);
      if (earlier === undefined) {
        byId.set(line.id, lines.length);
        lines.push(line);
      } else if ((lines[earlier] as SpooledLine).record() === undefined) {
        // The earlier line of this id is no record: this one is the first a flush inserts.
        lines[earlier] = line;
      }
    }
  }
  return lines;
}

/**
 * The listing fields of the line in `bytes` from `start` to `end`: decoded and parsed from the
 * small part before the retrieval details when that parses, else from the whole line. The
 * rest is decoded only when `record()` is asked for.
 */
function readLine(bytes: Buffer, start: number, end: number): SpooledLine | undefined {
  let parsed: ToolInvocationRecord | undefined | null = null;
  const record = (): ToolInvocationRecord | undefined => {
    if (parsed === null) {
      const text = bytes.toString("utf8", start, end);
      const result = text.trim() === "" ? { reason: "empty" } : parseToolInvocationRecord(text);
      parsed = "reason" in result ? undefined : result.record;
    }
    return parsed;
  };
  let head: Record<string, unknown> | undefined;
  const found = bytes.subarray(start, end).indexOf(detailsKey);
  const cut = start + found;
  if (found > 0) {
    try {
      head = JSON.parse(`${bytes.toString("utf8", start, cut)}}`) as Record<string, unknown>;
    } catch {
      head = undefined;
    }
  }
  // A head without every field a listing reads (a record written in another key order) is no head.
  if (!isHead(head)) {
    const whole = record();
    if (whole === undefined) return undefined;
    head = whole as unknown as Record<string, unknown>;
  }
  return {
    id: head.id as string,
    time: Date.parse(head.createdAt as string),
    found: head.found,
    fallbackReason: head.fallbackReason,
    query: head.query,
    transformedQuery: head.transformedQuery,
    record,
  };
}

function isHead(head: Record<string, unknown> | undefined): head is Record<string, unknown> {
  if (head === undefined || typeof head.id !== "string" || typeof head.createdAt !== "string") return false;
  return headFields.every((field) => field in head);
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** `progress.json` of the spool folder, as the flush reads it (unreadable: from the start). */
function readProgress(folder: string): Record<string, number> {
  try {
    const value = JSON.parse(readFileSync(join(folder, progressFile), "utf8")) as unknown;
    if (typeof value !== "object" || value === null) return {};
    return Object.fromEntries(Object.entries(value).filter(([, offset]) => Number.isSafeInteger(offset) && (offset as number) >= 0));
  } catch {
    return {};
  }
}
