import type { ToolInvocationRecord } from "../tool-invocation-record.js";

/** The largest value of a Postgres `integer` column (the record's counts). */
const largestInteger = 2_147_483_647;
/** The earliest time a Postgres `timestamptz` holds (4713 BC), rounded up to a whole year. */
const earliestTime = Date.UTC(-4712, 0, 1);

/**
 * Whether the `tool_invocation` table surely takes `record` (already checked by
 * `parseToolInvocationRecord`): its counts fit an `integer` and its start time a `timestamptz`.
 * `false` when the database refuses it or may: a count past 2^31 - 1, a time before 4713 BC.
 * A reader that answers without the database (`listSpooledRecords`) leaves such a record to it,
 * which refuses it (the flush quarantines it) or stores it.
 */
export function fitsTraceTable(record: ToolInvocationRecord): boolean {
  return record.candidateCount <= largestInteger && record.evidenceCount <= largestInteger && Date.parse(record.createdAt) >= earliestTime;
}
