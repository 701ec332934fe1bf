import type { z } from "zod";
import { ConfigurationError } from "./errors.js";

/**
 * Checks `input` against a zod schema and returns the parsed value. The first issue zod finds
 * becomes a `ConfigurationError` whose `key` is `name` followed by the issue's path
 * (`openLocalSearchPort.scoreExponents.cjk`), whose `value` is the refused value at that path,
 * and whose reason is zod's message. Every adapter and store reads its options through this one
 * function, so a bad option reads the same wherever it was given. With `name` "" the key is
 * the path alone (`overlapChars`), for options documented by their bare names. A top-level
 * option that is null counts as not given, unless the schema accepts null for it.
 */
export function parseOptions<Schema extends z.ZodType>(schema: Schema, input: unknown, name: string): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  // An option given as null (from JSON, YAML or an environment-driven config) means "not set",
  // as `value ?? default` always read it, unless the schema itself accepts null there.
  const withoutNulls = dropNullOptions(input);
  if (withoutNulls !== input) {
    const retried = schema.safeParse(withoutNulls);
    if (retried.success) return retried.data;
  }
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  const key = [name, ...path.map((part) => String(part))].filter((part) => part !== "").join(".") || "(options)";
  throw new ConfigurationError({ key, value: valueAt(input, path), reason: issue?.message ?? "invalid value" });
}

function dropNullOptions(input: unknown): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const entries = Object.entries(input);
  if (!entries.some(([, value]) => value === null)) return input;
  return Object.fromEntries(entries.filter(([, value]) => value !== null));
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const part of path) {
    if (value == null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}
