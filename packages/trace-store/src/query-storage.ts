import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigurationError } from "@lookup-knowledge/core";
import { hashQuery } from "./hash-query.js";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";

/** How a trace store keeps the query: its text, or a keyed hash of it. */
export type QueryStorage = "text" | "hash";

/** The file in a trace folder that holds the key of query hashes made there without a given key. */
export const queryHashKeyFile = "query-hash.key";

/** Checks a `queryStorage` setting; anything but `text` or `hash` throws `ConfigurationError`. */
export function resolveQueryStorage(value: unknown, key = "queryStorage"): QueryStorage {
  if (value === undefined) return "text";
  if (value === "text" || value === "hash") return value;
  throw new ConfigurationError({ key, value, reason: 'must be "text" or "hash"' });
}

/**
 * The key of the query hashes of the trace folder `directory`: the given one, else the one
 * kept in `query-hash.key` there, made (32 random bytes, hex, mode 0600) when `create` is set
 * and none exists yet. Undefined when none is given or kept and `create` is not set.
 */
export function resolveQueryHashKey(directory: string, options: { key?: string; create: boolean }): string | undefined {
  if (options.key !== undefined) {
    if (options.key.length < 16) {
      throw new ConfigurationError({ key: "queryHashKey", value: "(hidden)", reason: "must be at least 16 characters long" });
    }
    return options.key;
  }
  const file = join(directory, queryHashKeyFile);
  const existing = readKey(file);
  if (existing !== undefined || !options.create) return existing;
  mkdirSync(directory, { recursive: true });
  // Written whole under another name, then linked: a reader never sees a half-written key,
  // and of two processes making one at once, the first link wins and both use it.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(temporary, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  return readKey(file);
}

function readKey(file: string): string | undefined {
  try {
    const key = readFileSync(file, "utf8").trim();
    return key === "" ? undefined : key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * The record as it is stored: unchanged for `text`; for `hash`, `query` and
 * `transformedQuery` replaced by their keyed hashes, and the query's text cut out of `error`.
 */
export function applyQueryStorage(record: ToolInvocationRecord, storage: QueryStorage, key: string | undefined): ToolInvocationRecord {
  if (storage === "text" || key === undefined) return record;
  let error = record.error;
  if (error !== null) {
    for (const text of [record.query, record.transformedQuery]) {
      if (text.trim().length > 0) error = error.split(text).join("[query]");
    }
  }
  return {
    ...record,
    query: hashQuery(record.query, key),
    transformedQuery: hashQuery(record.transformedQuery, key),
    error,
  };
}
