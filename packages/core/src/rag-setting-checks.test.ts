import { describe, expect, it } from "vitest";
import { z } from "zod";
import { booleanSetting, numberSetting, type SettingCheck, type SettingCheckResult, wholeNumberSetting } from "./rag-setting-checks.js";

// The zod schemas rag-config.ts used before issue 36 item 5, kept here as the reference the
// plain checks must match word for word (the reasons are part of the CLI's messages).
const decimal = z.preprocess(
  (value) => (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value),
  z.number({ error: "must be a decimal number" }),
);
const number = (min: number, max: number) => decimal.pipe(z.number().min(min).max(max));
const integer = (min: number, max: number) => decimal.pipe(z.number().int("must be a whole number").min(min).max(max));
const boolean = z.preprocess(
  (value) => (value === "true" ? true : value === "false" ? false : value),
  z.boolean({ error: "must be true or false" }),
);

function byZod(schema: z.ZodType<number | boolean>, raw: unknown): SettingCheckResult {
  const parsed = schema.safeParse(raw);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, reason: parsed.error.issues.map((issue) => issue.message).join("; ") };
}

const values: unknown[] = [
  ...[0, -0, 1, 2, 16, 0.5, 1.5, -1, -0.5, 99, 100, 101, 200, 201, 1000, 1000.5, 1001, 600_000, 600_001, 100_000, 1_000_000, 1_000_001],
  ...[2 ** 53 - 1, 2 ** 53, 2 ** 60, -(2 ** 60), 1e21, 5e-324, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
  ...["0", "-0", "1", "007", "1.5", "1.", ".5", "-5", "1000.5", "99999999999999999999", "0.35", "1e3", "0x10", "", " ", "abc"],
  ...["NaN", "Infinity", "true", "false", "TRUE", "yes", true, false, null, undefined, {}, [], [1], { valueOf: () => 3 }],
];

const pairs: Array<[string, SettingCheck, z.ZodType<number | boolean>]> = [
  ["whole 1..1000", wholeNumberSetting(1, 1000), integer(1, 1000)],
  ["whole 1..200", wholeNumberSetting(1, 200), integer(1, 200)],
  ["whole 16..100000", wholeNumberSetting(16, 100_000), integer(16, 100_000)],
  ["whole 100..1000000", wholeNumberSetting(100, 1_000_000), integer(100, 1_000_000)],
  ["number 0..1", numberSetting(0, 1), number(0, 1)],
  ["boolean", booleanSetting, boolean],
];

describe("the rag.* value checks without zod", () => {
  it.each(pairs)("issue 36 item 5: %s accepts and refuses exactly what the zod schema did, with its reasons", (_name, check, schema) => {
    for (const raw of values) expect([raw, check(raw)]).toEqual([raw, byZod(schema, raw)]);
  });

  it("issue 36 item 5: the comparison sees a difference where there is one", () => {
    expect(wholeNumberSetting(1, 1000)(1001)).not.toEqual(byZod(integer(1, 999), 1001));
    expect(numberSetting(0, 1)("0.5")).toEqual({ ok: true, value: 0.5 });
  });
});
