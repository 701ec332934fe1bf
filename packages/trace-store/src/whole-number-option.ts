import { z } from "zod";

/**
 * The zod schema of a numeric option of this package: a whole number, `least` or more
 * (NaN, infinities and fractions are refused), with the reason every trace-store option has
 * given since it was checked by hand. Read through core's `parseOptions`.
 */
export function wholeNumberOption(least: number): z.ZodType<number> {
  const reason = `must be a whole number, ${least} or more`;
  return z.number({ error: reason }).refine((value) => Number.isSafeInteger(value) && value >= least, { error: reason });
}
