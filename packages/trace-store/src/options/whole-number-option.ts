import type { z as Zod } from "zod";

/** The reason every numeric option of this package gives when refused. */
function wholeNumberReason(least: number): string {
  return `must be a whole number, ${least} or more`;
}

/** Whether `value` is a whole number option's plainly valid value: a safe integer, `least` or more. */
export function isWholeNumberOption(value: unknown, least: number): value is number {
  return Number.isSafeInteger(value) && (value as number) >= least;
}

/**
 * The zod schema of a numeric option of this package: a whole number, `least` or more
 * (NaN, infinities and fractions are refused), with the reason every trace-store option has
 * given since it was checked by hand. Built with the `z` of the schema it goes into; read
 * through core's `parseOptions`.
 */
export function wholeNumberOption(z: typeof Zod, least: number): Zod.ZodType<number> {
  const reason = wholeNumberReason(least);
  return z.number({ error: reason }).refine((value) => isWholeNumberOption(value, least), { error: reason });
}
