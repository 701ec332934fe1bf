import type { z } from "zod";
import { ConfigurationError } from "./errors.js";

/**
 * Checks `input` against a zod schema and returns the parsed value. The first issue zod finds
 * becomes a `ConfigurationError` whose `key` is `name` followed by the issue's path
 * (`openLocalSearchPort.scoreExponents.cjk`), whose `value` is the refused value at that path,
 * and whose reason is zod's message. Every adapter and store reads its options through this one
 * function, so a bad option reads the same wherever it was given. With `name` "" the key is
 * the path alone (`overlapChars`), for options documented by their bare names.
 */
export function parseOptions<Schema extends z.ZodType>(schema: Schema, input: unknown, name: string): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  const key = [name, ...path.map((part) => String(part))].filter((part) => part !== "").join(".") || "(options)";
  throw new ConfigurationError({ key, value: valueAt(input, path), reason: issue?.message ?? "invalid value" });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const part of path) {
    if (value == null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}
