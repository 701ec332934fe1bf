import type { z } from "zod";
import { ConfigurationError } from "./errors.js";

/**
 * Checks `input` against a zod schema and returns the parsed value. The first issue zod finds
 * becomes a `ConfigurationError` whose `key` is `name` followed by the issue's path
 * (`openLocalSearchPort.scoreExponents.cjk`), whose `value` is the refused value at that path,
 * and whose reason is zod's message. Every adapter and store reads its options through this one
 * function, so a bad option reads the same wherever it was given. With `name` "" the key is
 * the path alone (`overlapChars`), for options documented by their bare names. A top-level
 * option that is null counts as not given, unless the schema accepts null for it: when
 * another option is refused, that one is named, not the null.
 */
export function parseOptions<Schema extends z.ZodType>(schema: Schema, input: unknown, name: string): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  // An option given as null (from JSON, YAML or an environment-driven config) means "not set",
  // as `value ?? default` always read it, unless the schema itself accepts null there.
  let issues = parsed.error.issues;
  const withoutNulls = dropNullOptions(input);
  if (withoutNulls !== input) {
    const retried = schema.safeParse(withoutNulls);
    if (retried.success) return retried.data;
    // A null the schema takes as not given is not what is wrong; a null where it needs a value is.
    const refused = new Set(retried.error.issues.map((issue) => issue.path[0]));
    const notGiven = (key: PropertyKey | undefined) => key !== undefined && valueAt(input, [key]) === null && !refused.has(key);
    issues = issues.filter((issue) => !notGiven(issue.path[0]));
    if (issues.length === 0) issues = retried.error.issues;
  }
  const issue = issues[0];
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
