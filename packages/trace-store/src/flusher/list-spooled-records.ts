import { fitsTraceTable } from "../database/fits-trace-table.js";
import { sanitizeToolInvocationRecord } from "../database/rows/sanitize-tool-invocation-record.js";
import type { StoredToolInvocation } from "../database/rows/stored-tool-invocation.js";
import type { TraceQuery } from "../database/trace-query.js";
import type { SpooledLine } from "../spool/read-spooled-lines.js";
import { storedFromSpool } from "./stored-from-spool.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";

const defaultLimit = 50;

/**
 * The database's answer to `query` (`TraceDatabase.list`: the filters, newest first, ties by
 * id, at most `limit`), worked out from `spooled` (the records not yet moved into the
 * database, `readSpooledLines`) when they alone decide it, else `undefined` (ask the
 * database). `databaseNewest`: the start time of the newest record the database may hold
 * (`readDatabaseNewest`; null: it holds none; undefined: unknown). The spool decides when
 * no stored record can be in the answer: the database holds none, or none in the asked time
 * range, or the spool has `limit` matching records all newer than any stored one.
 *
 * Each record is returned as a read from the database gives it back (`storedFromSpool`). A query text
 * with a character beyond ASCII is left to the database, whose case folding (ILIKE) may
 * differ from JavaScript's; so is an answer with a record the database may refuse
 * (`fitsTraceTable`: a flush quarantines it, the database never lists it).
 */
export function listSpooledRecords(
  spooled: readonly SpooledLine[],
  query: TraceQuery,
  databaseNewest: number | null | undefined,
): StoredToolInvocation[] | undefined {
  if (databaseNewest === undefined) return undefined;
  const text = query.queryText ?? "";
  if (/[^\x20-\x7e]/.test(text)) return undefined;
  const limit = query.limit ?? defaultLimit;
  // A negative or fractional limit, a time that is no date: whatever the database says of it, it says.
  if (
    !Number.isSafeInteger(limit) ||
    limit < 0 ||
    [query.since, query.until].some((time) => time !== undefined && Number.isNaN(time.getTime()))
  )
    return undefined;
  const matches = matcherOf(query);
  const candidates = spooled.filter(matches).sort((left, right) => right.time - left.time || compareIds(right.id, left.id));
  // Checked whole in order, as few as the answer needs: a line that is no record is no answer.
  const answer: ToolInvocationRecord[] = [];
  let oldest: number | undefined;
  for (const line of candidates) {
    if (answer.length >= limit) break;
    const record = line.record();
    if (record === undefined) continue;
    if (!fitsTraceTable(record)) return undefined;
    answer.push(record);
    oldest = line.time;
  }
  const storedCanMatch =
    databaseNewest !== null &&
    (query.since === undefined || databaseNewest >= query.since.getTime()) &&
    !(answer.length === limit && oldest !== undefined && oldest > databaseNewest);
  if (storedCanMatch) return undefined;
  return answer.map(storedFromSpool);
}

/** Whether a spooled line matches `query`'s filters; what the query gives is worked out once, not per line. */
function matcherOf(query: TraceQuery): (line: SpooledLine) => boolean {
  const since = query.since?.getTime();
  const until = query.until?.getTime();
  const text = query.queryText ?? "";
  const needle = text.toLowerCase();
  const hashes = query.queryHashes ?? [];
  const whole = query.queryTextWhole === true;
  return (line) => {
    if (Number.isNaN(line.time)) return false;
    if (since !== undefined && line.time < since) return false;
    if (until !== undefined && line.time >= until) return false;
    if (query.found !== undefined && line.found !== query.found) return false;
    if (query.fallbackReason !== undefined && line.fallbackReason !== query.fallbackReason) return false;
    if (text === "" && hashes.length === 0) return true;
    return matchesText(line, whole ? { whole: text } : { part: needle }, hashes);
  };
}

/** Whether the line's query or transformed query holds `part` (lower-cased) or is `whole`, or is one of `hashes`. */
function matchesText(line: SpooledLine, text: { part: string } | { whole: string }, hashes: readonly string[]): boolean {
  if (typeof line.query !== "string" || typeof line.transformedQuery !== "string") return false;
  // As stored: the text the database holds is sanitised.
  const { query: stored, transformedQuery: transformed } = sanitizeToolInvocationRecord({
    query: line.query,
    transformedQuery: line.transformedQuery,
    retrievalDetails: {},
  } as unknown as ToolInvocationRecord);
  const byText =
    "whole" in text
      ? text.whole !== "" && (stored === text.whole || transformed === text.whole)
      : text.part !== "" && (stored.toLowerCase().includes(text.part) || transformed.toLowerCase().includes(text.part));
  return byText || hashes.includes(stored) || hashes.includes(transformed);
}

/** Ids compared by their UTF-8 bytes, as the database's C collation orders text. */
function compareIds(left: string, right: string): number {
  return Buffer.compare(Buffer.from(left, "utf8"), Buffer.from(right, "utf8"));
}
