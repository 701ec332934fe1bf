const units: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** The inputs `parsePointInTime` accepts, in words, for the error messages of its callers. */
export const pointInTimeForms = "an age like 30m, 1h, 7d or 2w, or an ISO date like 2025-03-14 or 2025-03-14T09:00:00Z";

/**
 * Reads a point in time as the trace filters take it (`traces --since`, the inspector's
 * `since`): an age before `now` (`90s`, `30m`, `1.5h`, `7d`, `2w`; the unit in either case)
 * or an ISO date (`2025-03-14`, `2025-03-14T09:00:00Z`, `2025-03-14 09:00+02:00`).
 * Returns `undefined` for anything else, and for a time outside what a `Date` holds, so each
 * caller refuses it with its own error, naming its option and `pointInTimeForms`.
 */
export function parsePointInTime(value: string, now: Date): Date | undefined {
  const text = value.trim();
  const age = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(text);
  if (age) {
    const amount = Number(age[1]) * (units[(age[2] ?? "").toLowerCase()] ?? Number.NaN);
    return valid(new Date(now.getTime() - amount));
  }
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    return valid(new Date(Date.parse(text)));
  }
  return undefined;
}

function valid(date: Date): Date | undefined {
  return Number.isNaN(date.getTime()) ? undefined : date;
}
