/**
 * How long one file may take to parse: 30 s, plus 10 s per MB. Parsing does about 1 MB a
 * second per core, and bounded nesting keeps it near-linear, so only a pathological file
 * reaches this; its worker is stopped and the file skipped.
 */
export function parseTimeLimitMs(textLength: number): number {
  return 30_000 + Math.ceil(textLength / 100_000) * 1_000;
}

/** Why a file was skipped when its parse ran past `parseTimeLimitMs`. */
export function parseTimeLimitReason(limitMs: number, textLength: number): string {
  return `parsing took longer than ${formatSeconds(limitMs)} s, the limit for a file of ${textLength} characters`;
}

function formatSeconds(milliseconds: number): string {
  return String(Math.round(milliseconds / 100) / 10);
}
