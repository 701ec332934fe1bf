import { LookupKnowledgeError, describeValue } from "@lookup-knowledge/core";
import { z } from "zod";
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

const requiredText = z
  .string({ error: "must be a non-empty string" })
  .refine((value) => value.trim() !== "", { error: "must be a non-empty string" });
const optionalText = z.string({ error: "must be a string" }).nullish();
const optionalTerms = z.array(z.string({ error: "must be a string" }), { error: "must be an array of strings" }).nullish();

const knowledgeEntrySchema = z.object(
  {
    id: requiredText,
    source: requiredText,
    title: optionalText,
    keywords: optionalTerms,
    domain: optionalText,
    entities: optionalTerms,
    metadata: z.custom<Record<string, unknown>>(isPlainObject, { error: "must be a plain object of metadata fields" }).nullish(),
  },
  { error: "must be an object" },
);

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
    const result = knowledgeEntrySchema.safeParse(raw);
    if (!result.success) {
      const issue = result.error.issues[0];
      const path = issue?.path ?? [];
      const field = path.length === 0 ? "entry" : formatPath(path);
      const value = path.length === 0 ? raw : valueAt(raw, path);
      throw invalidEntry(
        `Invalid knowledge entry at index ${index}${describeId(raw)}: ${field} ${issue?.message ?? "is invalid"} (got ${describeValue(value)})`,
      );
    }
    const entry = result.data;
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
