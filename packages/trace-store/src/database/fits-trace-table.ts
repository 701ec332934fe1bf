import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";

/** The largest value of a Postgres `integer` column (the record's counts). */
const largestInteger = 2_147_483_647;
/** The earliest time a Postgres `timestamptz` holds (4713 BC), rounded up to a whole year. */
const earliestTime = Date.UTC(-4712, 0, 1);
/**
 * An ISO 8601 time with its zone and at most milliseconds, as the recorder writes it: one that
 * JavaScript and Postgres read as the same instant (a time without a zone is local time to one
 * and the session's zone to the other; Postgres keeps microseconds, JavaScript does not).
 */
const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * Whether the `tool_invocation` table surely takes `record` (already checked by
 * `parseToolInvocationRecord`) as this package reads it: its counts fit an `integer`, its start
 * time a `timestamptz`, written in ISO 8601 with its zone and at most milliseconds. `false` when
 * the database refuses it or may read it otherwise: a count past 2^31 - 1, a time before 4713
 * BC, a time without a zone or with microseconds. A reader that answers without the database
 * (`listSpooledRecords`) leaves such a record to it, which refuses it (the flush quarantines it)
 * or stores it as it reads it.
 */
export function fitsTraceTable(record: ToolInvocationRecord): boolean {
  return (
    record.candidateCount <= largestInteger &&
    record.evidenceCount <= largestInteger &&
    isoTime.test(record.createdAt) &&
    Date.parse(record.createdAt) >= earliestTime
  );
}
