/** What a setting's check gives: the value read, or why it was refused. */
export type SettingCheckResult = { ok: true; value: number | boolean } | { ok: false; reason: string };

/** Checks one raw `rag.*` value (a string already trimmed). */
export type SettingCheck = (raw: unknown) => SettingCheckResult;

// Plain checks rather than zod schemas, so that reading the settings loads and builds nothing
// (issue 36 item 5: zod's ~95 modules were loaded by every lookup through this file). The
// reasons are the ones the zod schemas gave, word for word; rag-setting-checks.test.ts holds
// both side by side.

const decimalText = /^-?\d+(\.\d+)?$/;

/** Numbers, or strings holding a plain decimal number; booleans, hex, exponents, blanks and non-finite numbers are not. */
function readDecimal(raw: unknown): number | undefined {
  const value = typeof raw === "string" && decimalText.test(raw) ? Number(raw) : raw;
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function range(value: number, min: number, max: number): string[] {
  if (value < min) return [`Too small: expected number to be >=${min}`];
  if (value > max) return [`Too big: expected number to be <=${max}`];
  return [];
}

function result(value: number, reasons: string[]): SettingCheckResult {
  return reasons.length === 0 ? { ok: true, value } : { ok: false, reason: reasons.join("; ") };
}

/** A decimal number from `min` to `max`, both included. */
export function numberSetting(min: number, max: number): SettingCheck {
  return (raw) => {
    const value = readDecimal(raw);
    if (value === undefined) return { ok: false, reason: "must be a decimal number" };
    return result(value, range(value, min, max));
  };
}

/** A whole number from `min` to `max`: a fraction is refused as such; an integer past 2^53 also for its range. */
export function wholeNumberSetting(min: number, max: number): SettingCheck {
  return (raw) => {
    const value = readDecimal(raw);
    if (value === undefined) return { ok: false, reason: "must be a decimal number" };
    if (!Number.isInteger(value)) return { ok: false, reason: "must be a whole number" };
    return result(value, [...(Number.isSafeInteger(value) ? [] : ["must be a whole number"]), ...range(value, min, max)]);
  };
}

/** `true` or `false`, as booleans or as those two strings. */
export const booleanSetting: SettingCheck = (raw) => {
  const value = raw === "true" ? true : raw === "false" ? false : raw;
  return typeof value === "boolean" ? { ok: true, value } : { ok: false, reason: "must be true or false" };
};
