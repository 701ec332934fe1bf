import { parsePointInTime } from "@lookup-knowledge/core";

/** The start of the period `lookup-knowledge gaps` and the inspector's Gaps view read by default. */
export const defaultGapsSince = "30d";

/** A gaps period's start as written, read: the time, or what was wrong with it. */
export type GapPeriodStart = { since: Date } | { problem: "unreadable" } | { problem: "future"; since: Date };

/**
 * The start of a gaps period as `gaps --since` and the inspector's `since` take it (issue 37):
 * an age before `now` or an ISO date (core's `parsePointInTime`), `defaultGapsSince` when
 * nothing is written. A start after `now` is a problem, not an empty period: a report that
 * reads nothing would say "no gaps". Each caller words the error for its own option.
 */
export function readGapPeriodStart(written: string | undefined, now: Date): GapPeriodStart {
  const text = written?.trim() || defaultGapsSince;
  const since = parsePointInTime(text, now);
  if (since === undefined) return { problem: "unreadable" };
  if (since.getTime() > now.getTime()) return { problem: "future", since };
  return { since };
}
