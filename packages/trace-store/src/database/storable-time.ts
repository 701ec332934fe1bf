/** The earliest and latest times a filter passes to the database: years 1 to 9999. */
const earliest = new Date("0001-01-01T00:00:00.000Z");
const latest = new Date("9999-12-31T23:59:59.999Z");

/**
 * A filter's time brought within the years 1 to 9999. JavaScript dates reach some 270,000
 * years either way (`--since 99999999d`), Postgres's timestamps do not, and a time out of its
 * range fails the statement; no record is older or newer than these bounds (a stored time
 * outside them reads as `Invalid Date`), so the clamp changes no result.
 */
export function storableTime(time: Date): Date {
  if (time.getTime() < earliest.getTime()) return earliest;
  if (time.getTime() > latest.getTime()) return latest;
  return time;
}
