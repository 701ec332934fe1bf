import { CliError } from "./cli-error.js";

const units: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * Reads a CLI time option: an age before `now` (`90s`, `30m`, `1h`, `7d`, `2w`) or an ISO
 * date (`2025-03-14`, `2025-03-14T09:00:00Z`). Anything else throws a `CliError`
 * (`invalid_option`) naming the option and the value.
 */
export function parseTimeOption(option: string, value: string, now: Date = new Date()): Date {
  const text = value.trim();
  const age = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(text);
  if (age) {
    const amount = Number(age[1]) * (units[(age[2] ?? "").toLowerCase()] ?? Number.NaN);
    if (Number.isFinite(amount)) return new Date(now.getTime() - amount);
  }
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    const time = Date.parse(text);
    if (!Number.isNaN(time)) return new Date(time);
  }
  throw new CliError({
    code: "invalid_option",
    message: `Invalid ${option} value ${JSON.stringify(value)}: expected an age like 30m, 1h, 7d or 2w, or an ISO date like 2025-03-14 or 2025-03-14T09:00:00Z.`,
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
