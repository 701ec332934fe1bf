import type { ResolvedIngestOptions } from "./resolve-ingest-options.js";

// Issue 36 item 6: loading zod and compiling the options schema was a cost of every CLI ingest
// (the options given are nearly always plainly valid, or none). Options that are plainly
// valid are read here with plain checks, to the very value the schema gives them; anything
// else (a string with spaces around it, a null, an unknown key, a bad value) goes through the
// schema, which refuses a bad option with its usual message (resolve-ingest-options.test.ts
// holds the two side by side).

const stringListKeys = ["include", "exclude", "entityFields", "keywordFields", "descriptionFields"] as const;
const knownKeys = new Set<string>([...stringListKeys, "categoryField", "maxChunkChars", "overlapChars", "followSymlinks"]);

/** A string the schema's `trim().min(1)` keeps as it is. */
const isPlainString = (value: unknown): value is string => typeof value === "string" && value !== "" && value.trim() === value;

/**
 * A copy of a list of plain strings, or undefined when it is not one. Each place is read once,
 * holes too (`every` skips a hole; the schema reads it as undefined), and the copy is what was
 * checked: a list whose iterator, or a place's getter, gives something else on a second read
 * (a caller's hostile or changing list) cannot slip an unchecked value past the checks.
 */
function plainStringListCopy(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const { length } = value;
  const copy: string[] = new Array(length);
  for (let index = 0; index < length; index += 1) {
    const item: unknown = value[index];
    if (!isPlainString(item)) return undefined;
    copy[index] = item;
  }
  return copy;
}

/**
 * `merged` (the defaults with the given options over them) as the schema reads it, when each
 * option is plainly valid; otherwise undefined (the caller parses it with the schema). The
 * lists are copies, as the schema's are.
 */
export function readPlainIngestOptions(merged: Record<string, unknown>): ResolvedIngestOptions | undefined {
  // An own "__proto__" key among the options set the merged object's prototype; the schema's
  // strict check reads inherited keys too (for...in), these checks only own ones.
  if (Object.getPrototypeOf(merged) !== Object.prototype) return undefined;
  for (const key of Object.keys(merged)) if (!knownKeys.has(key)) return undefined;
  const lists: Partial<Record<(typeof stringListKeys)[number], string[]>> = {};
  for (const key of stringListKeys) {
    const copy = plainStringListCopy(merged[key]);
    if (copy === undefined) return undefined;
    lists[key] = copy;
  }
  const { include, exclude, entityFields, keywordFields, descriptionFields } = lists as Record<(typeof stringListKeys)[number], string[]>;
  const { categoryField, maxChunkChars, overlapChars, followSymlinks } = merged;
  if (include.length === 0 || !isPlainString(categoryField) || typeof followSymlinks !== "boolean") return undefined;
  if (!Number.isSafeInteger(maxChunkChars) || (maxChunkChars as number) < 200) return undefined;
  if (!Number.isSafeInteger(overlapChars) || (overlapChars as number) < 0) return undefined;
  return {
    include,
    exclude,
    categoryField,
    entityFields,
    keywordFields,
    descriptionFields,
    maxChunkChars: maxChunkChars as number,
    overlapChars: overlapChars as number,
    followSymlinks,
  };
}
