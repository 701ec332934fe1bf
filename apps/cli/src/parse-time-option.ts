import { parsePointInTime, pointInTimeForms } from "@lookup-knowledge/core";
import { CliError } from "./cli-error.js";

/**
 * Reads a CLI time option with core's `parsePointInTime`, the parser the inspector's `since`
 * filter uses too: an age before `now` (`90s`, `30m`, `1h`, `7d`, `2w`) or an ISO date
 * (`2025-03-14`, `2025-03-14T09:00:00Z`). Anything else throws a `CliError`
 * (`invalid_option`) naming the option and the value.
 */
export function parseTimeOption(option: string, value: string, now: Date = new Date()): Date {
  const time = parsePointInTime(value, now);
  if (time) return time;
  throw new CliError({
    code: "invalid_option",
    message: `Invalid ${option} value ${JSON.stringify(value)}: expected ${pointInTimeForms}.`,
  });
}

/** Reads a whole number of 1 or more given to `option`, else throws `invalid_option`. */
export function parseCountOption(option: string, value: string): number {
  const count = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(count) || count < 1) {
    throw new CliError({
      code: "invalid_option",
      message: `Invalid ${option} value ${JSON.stringify(value)}: expected a whole number, 1 or more.`,
    });
  }
  return count;
}
