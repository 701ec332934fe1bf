import { expect } from "vitest";

// Issue 36 item 5: plain checks read what their zod schema reads without loading zod; they
// must accept nothing the schema refuses and read what they accept to the schema's value.
// These helpers hold the two side by side over a value and every copy of it with one field
// changed.

/** Values put in place of each field in turn: wrong types, out of range, absent, and an extra key beside it. */
const replacements: unknown[] = [undefined, null, "", "x", -1, 0, 1.5, 2 ** 60, true, {}, [], "0".repeat(64), "xxh64", "int8", 7];

/** Every copy of `json` with one field (at any depth) replaced, removed, or given an unknown key beside it. */
export function* oneFieldMutations(json: unknown): Generator<unknown> {
  if (json === null || typeof json !== "object") return;
  const entries = Object.entries(json);
  if (!Array.isArray(json)) yield { ...json, unexpected: 1 };
  for (const [key, value] of entries) {
    const copy = (replacement: unknown): unknown => {
      if (Array.isArray(json)) return json.map((item, index) => (String(index) === key ? replacement : item));
      const changed: Record<string, unknown> = { ...json, [key]: replacement };
      if (replacement === undefined) delete changed[key];
      return changed;
    };
    for (const replacement of replacements) yield copy(replacement);
    for (const inner of oneFieldMutations(value)) yield copy(inner);
  }
}

/**
 * `readPlain` reads `value` (which `schema` accepts) as the schema does, to the same JSON (its
 * keys in the same order), and of every one-field change of it accepts nothing the schema
 * refuses and reads what it accepts to the schema's value. `readPlain` answers undefined for
 * what it leaves to the schema.
 */
export function expectPlainMatchesSchema(
  value: unknown,
  readPlain: (json: unknown) => unknown,
  schema: { safeParse(json: unknown): { success: boolean; data?: unknown } },
) {
  const original = schema.safeParse(value);
  expect(original.success).toBe(true);
  expect(JSON.stringify(readPlain(value))).toBe(JSON.stringify(original.data));
  let accepted = 0;
  let checked = 0;
  for (const mutated of oneFieldMutations(value)) {
    checked += 1;
    const plain = readPlain(mutated);
    if (plain === undefined) continue;
    accepted += 1;
    const parsed = schema.safeParse(mutated);
    expect(parsed.success, JSON.stringify(mutated)).toBe(true);
    expect(JSON.stringify(plain)).toBe(JSON.stringify(parsed.data));
  }
  // The mutations both keep the value valid (an optional field removed) and break it.
  expect(accepted).toBeGreaterThan(0);
  expect(accepted).toBeLessThan(checked);
}
