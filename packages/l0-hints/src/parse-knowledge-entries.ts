import { LookupKnowledgeError, describeValue } from "@lookup-knowledge/core";
import type { L0HintsErrorCode } from "./l0-hints-error-code.js";

/** An entry as the index keeps it: trimmed, blank terms dropped, nothing shared with the input. */
export interface ParsedEntry {
  id: string;
  source: string;
  title?: string;
  keywords: string[];
  domain?: string;
  entities: string[];
  /** A copy of the entry's further metadata, frozen; absent when it has none. */
  metadata?: Readonly<Record<string, unknown>>;
}

interface CheckedEntry {
  id: string;
  source: string;
  title?: string | null;
  keywords?: string[] | null;
  domain?: string | null;
  entities?: string[] | null;
  metadata?: Record<string, unknown> | null;
}

type EntryIssue = { path: PropertyKey[]; message: string };

// Checked by hand, not by a zod schema: an L0 index is built at every open of a knowledge
// base, from every entry (issue 36 item 5: zod took ~0.5 s at 100,000 entries, and its ~95
// modules were loaded for it). The reasons are the ones the schema gave, field by field in
// its order; parse-knowledge-entries.test.ts holds them.
function entryIssue(raw: unknown): EntryIssue | undefined {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return { path: [], message: "must be an object" };
  const entry = raw as Record<string, unknown>;
  for (const key of ["id", "source"]) {
    const value = entry[key];
    if (typeof value !== "string" || value.trim() === "") return { path: [key], message: "must be a non-empty string" };
  }
  for (const key of ["title", "keywords", "domain", "entities", "metadata"]) {
    const value = entry[key];
    if (value === undefined || value === null) continue;
    if (key === "title" || key === "domain") {
      if (typeof value !== "string") return { path: [key], message: "must be a string" };
    } else if (key === "metadata") {
      if (!isPlainObject(value)) return { path: [key], message: "must be a plain object of metadata fields" };
    } else {
      if (!Array.isArray(value)) return { path: [key], message: "must be an array of strings" };
      const position = value.findIndex((item) => typeof item !== "string");
      if (position !== -1) return { path: [key, position], message: "must be a string" };
    }
  }
  return undefined;
}

/**
 * Checks entries that come from outside (frontmatter, JSON, another team's code) and copies
 * them into the index's own shape. The first bad entry, or a repeated id, throws a
 * `LookupKnowledgeError` with code `invalid_knowledge_entry` naming the entry and the field.
 */
export function parseKnowledgeEntries(entries: unknown): ParsedEntry[] {
  if (!Array.isArray(entries)) {
    throw invalidEntry(`Knowledge entries must be an array, got ${describeValue(entries)}`);
  }
  const indexById = new Map<string, number>();
  const parsed: ParsedEntry[] = [];
  entries.forEach((raw: unknown, index) => {
    const issue = entryIssue(raw);
    if (issue !== undefined) {
      const { path } = issue;
      const field = path.length === 0 ? "entry" : formatPath(path);
      const value = path.length === 0 ? raw : valueAt(raw, path);
      throw invalidEntry(
        `Invalid knowledge entry at index ${index}${describeId(raw)}: ${field} ${issue.message} (got ${describeValue(value)})`,
      );
    }
    const entry = raw as CheckedEntry;
    const earlier = indexById.get(entry.id);
    if (earlier !== undefined) {
      throw invalidEntry(
        `Invalid knowledge entry at index ${index} (id ${JSON.stringify(entry.id)}): id is a duplicate of the entry at index ${earlier}; ids must be unique`,
      );
    }
    indexById.set(entry.id, index);
    const title = presentText(entry.title);
    const domain = presentText(entry.domain);
    parsed.push({
      id: entry.id,
      source: entry.source,
      ...(title === undefined ? {} : { title }),
      keywords: presentTerms(entry.keywords),
      ...(domain === undefined ? {} : { domain }),
      entities: presentTerms(entry.entities),
      ...(entry.metadata ? { metadata: copyMetadata(entry.metadata, index, raw) } : {}),
    });
  });
  return parsed;
}

function isPlainObject(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A deep copy (metadata is JSON-like), frozen, so the caller's object never reaches the index. */
function copyMetadata(metadata: Record<string, unknown>, index: number, raw: unknown): Readonly<Record<string, unknown>> {
  try {
    return Object.freeze(structuredClone(metadata));
  } catch {
    throw invalidEntry(
      `Invalid knowledge entry at index ${index}${describeId(raw)}: metadata must hold data only (strings, numbers, booleans, arrays, objects)`,
    );
  }
}

function invalidEntry(message: string): LookupKnowledgeError<L0HintsErrorCode> {
  return new LookupKnowledgeError<L0HintsErrorCode>({ code: "invalid_knowledge_entry", message });
}

function presentText(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function presentTerms(values: string[] | null | undefined): string[] {
  const terms: string[] = [];
  for (const value of values ?? []) {
    const trimmed = value.trim();
    if (trimmed !== "") terms.push(trimmed);
  }
  return terms;
}

function describeId(raw: unknown): string {
  if (raw === null || typeof raw !== "object") return "";
  const id: unknown = (raw as Record<string, unknown>).id;
  return typeof id === "string" && id.trim() !== "" ? ` (id ${JSON.stringify(id)})` : "";
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let text = "";
  for (const part of path) {
    text += typeof part === "number" ? `[${part}]` : text === "" ? String(part) : `.${String(part)}`;
  }
  return text;
}

function valueAt(raw: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = raw;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}
