import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ConfigurationError, parseOptions } from "@lookup-knowledge/core";
import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import { readSmallFile } from "./read-small-file.js";
import { hashQuery, hashQueryTerm } from "./hash-query.js";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";

/** How a trace store keeps the query: its text, or a keyed hash of it. */
export type QueryStorage = "text" | "hash";

/** The file in a trace folder that holds the key of query hashes made there without a given key. */
export const queryHashKeyFile = "query-hash.key";

/** Checks a `queryStorage` setting; anything but `text` or `hash` throws `ConfigurationError`. */
export function resolveQueryStorage(value: unknown, key = "queryStorage"): QueryStorage {
  if (value === undefined) return "text";
  if (value === "text" || value === "hash") return value;
  return parseOptions(queryStorageSchema(), value, key);
}

// Built, and zod loaded, only to refuse a bad value with its message (issue 36 item 5).
const queryStorageSchema = schemaOnDemand((z) => z.enum(["text", "hash"], { error: 'must be "text" or "hash"' }).default("text"));

/**
 * The key of the query hashes of the trace folder `directory`: the given one, else the one
 * kept in `query-hash.key` there, made (32 random bytes, hex, mode 0600) when `create` is set
 * and none exists yet. Undefined when none is given or kept and `create` is not set.
 */
export function resolveQueryHashKey(directory: string, options: { key?: string; create: boolean }): string | undefined {
  if (options.key !== undefined) {
    // Checked by hand, not by parseOptions: the refused value is a secret and must not be shown.
    if (options.key.length < 16) {
      throw new ConfigurationError({ key: "queryHashKey", value: "(hidden)", reason: "must be at least 16 characters long" });
    }
    return options.key;
  }
  const file = join(directory, queryHashKeyFile);
  const existing = readKey(file);
  if (existing !== undefined || !options.create) return existing;
  mkdirSync(directory, { recursive: true });
  // Written whole (and synced) under another name, then linked: a reader never sees a
  // half-written key, a crash does not leave an empty one, and of two processes making one at
  // once, the first link wins and both use it.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const descriptor = openSync(temporary, "wx", 0o600);
  try {
    writeSync(descriptor, `${randomBytes(32).toString("hex")}\n`);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  const made = readKey(file);
  // An empty key file must not let a hashing store keep (or show) a query's text.
  if (made === undefined) {
    throw new ConfigurationError({
      key: queryHashKeyFile,
      value: file,
      reason:
        "is empty, so no query can be hashed: its key was lost (a crash before it reached the disk, or the file was emptied). Remove it to have a new key made; queries hashed with the lost key can then not be found by their text.",
    });
  }
  return made;
}

/** The most bytes a key file is read for: one made here is 65; a longer one was not made by a trace store. */
const keyFileBytes = 1024;

/**
 * The key kept in `file`, or undefined when there is none (or it is empty). Another process may
 * have put something else there: only a regular file of at most `keyFileBytes` is read
 * (`readSmallFile`: a FIFO is not waited on), and anything else is refused, naming the file.
 */
function readKey(file: string): string | undefined {
  const read = readSmallFile(file, keyFileBytes);
  if (read.kind === "missing") return undefined;
  if (read.kind === "text") {
    const key = read.text.trim();
    return key === "" ? undefined : key;
  }
  throw new ConfigurationError({
    key: queryHashKeyFile,
    value: file,
    reason:
      read.kind === "not-a-file"
        ? "is not a regular file (a FIFO, a device or a folder is in its place), so the key of query hashes cannot be read from it: remove it to have a new key made"
        : `is longer than ${keyFileBytes} bytes, so it is not a key a trace store made: remove it to have a new key made`,
  });
}

/**
 * The record as it is stored: unchanged for `text`. For `hash`, no text of the query is
 * kept (R28):
 *
 * - `query` and `transformedQuery` become their keyed hashes (`hashQuery`);
 * - `error` and every attempt's `error`: the query's text (as received, normalised and
 *   transformed) and each of its words of three or more characters are cut out (`[query]`);
 * - each evidence block's `hitReasons`: every quoted term (`heading mentions "visa"`) becomes
 *   its short keyed hash (`hashQueryTerm`, `heading mentions "hash:1f2e3d4c5b6a"`), and any
 *   whole query text left is cut out;
 * - the L0 hints' `keywords`, `entities`, `titles` and the entries' `title`s (terms the query
 *   matched) become their short keyed hashes.
 *
 * What names the knowledge base itself is kept: sources, evidence keys, entry ids, domains,
 * evidence titles, previews of evidence content and the filters sent. These may share words
 * with a query.
 */
export function applyQueryStorage(record: ToolInvocationRecord, storage: QueryStorage, key: string | undefined): ToolInvocationRecord {
  if (storage === "text" || key === undefined) return record;
  const texts = queryTexts(record);
  const words = queryWords(texts);
  const scrub = (error: string): string => cutWords(cutTexts(error, texts), words);
  const term = (text: string): string => hashQueryTerm(text, key);
  const details = record.retrievalDetails;
  return {
    ...record,
    query: hashQuery(record.query, key),
    transformedQuery: hashQuery(record.transformedQuery, key),
    error: record.error === null ? null : scrub(record.error),
    retrievalDetails: {
      ...details,
      hints: {
        ...details.hints,
        keywords: details.hints.keywords.map(term),
        entities: details.hints.entities.map(term),
        titles: details.hints.titles.map(term),
        entries: details.hints.entries.map((entry) => (entry.title === undefined ? entry : { ...entry, title: term(entry.title) })),
      },
      attempts: details.attempts.map((attempt) => (attempt.error === undefined ? attempt : { ...attempt, error: scrub(attempt.error) })),
      evidence: details.evidence.map((block) => ({
        ...block,
        hitReasons: block.hitReasons.map((reason) => cutTexts(hashQuotedTerms(reason, term), texts)),
      })),
    },
  };
}

/** The query's whole texts, longest first: as received, normalised (whitespace collapsed) and transformed. */
function queryTexts(record: ToolInvocationRecord): string[] {
  const texts = new Set<string>();
  for (const text of [record.query, record.transformedQuery]) {
    for (const form of [text, text.trim(), text.replace(/\s+/g, " ").trim()]) if (form.trim().length > 0) texts.add(form);
  }
  return [...texts].sort((left, right) => right.length - left.length);
}

/** The query's words of three or more letters or digits, lower-cased, longest first. */
function queryWords(texts: readonly string[]): string[] {
  const words = new Set<string>();
  for (const text of texts) for (const word of text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []) words.add(word);
  return [...words].sort((left, right) => right.length - left.length);
}

function cutTexts(text: string, texts: readonly string[]): string {
  let cut = text;
  for (const query of texts) cut = cut.split(query).join("[query]");
  return cut;
}

/** `text` with every whole word that is a query word (ignoring case) replaced by `[query]`. */
function cutWords(text: string, words: readonly string[]): string {
  if (words.length === 0) return text;
  const wanted = new Set(words);
  return text.replace(/[\p{L}\p{N}]+/gu, (word) => (wanted.has(word.toLowerCase()) ? "[query]" : word));
}

/**
 * A hit reason with its quoted terms hashed: the text from the first `"` to the last one
 * becomes one hash (a term holding a `"` stays whole); a lone `"` hashes the rest.
 */
function hashQuotedTerms(reason: string, term: (text: string) => string): string {
  const first = reason.indexOf('"');
  if (first === -1) return reason;
  const last = reason.lastIndexOf('"');
  if (last === first) return `${reason.slice(0, first)}"${term(reason.slice(first + 1))}"`;
  return `${reason.slice(0, first)}"${term(reason.slice(first + 1, last))}"${reason.slice(last + 1)}`;
}
