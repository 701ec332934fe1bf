import type { ToolInvocationRecord } from "../tool-invocation-record.js";

/** What Postgres `text` and `jsonb` cannot hold: NUL, and UTF-16 surrogates that are not part of a pair. */
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** The most field paths listed in `sanitizedFields`; a longer list ends with `…`. */
const maxListedFields = 20;

/**
 * The record as Postgres can store it: in every string of it (keys of `retrievalDetails`
 * included), each NUL (`\u0000`) and each lone UTF-16 surrogate becomes U+FFFD (`�`).
 * A record that needed it says so in `retrievalDetails.sanitizedFields`, the paths of the
 * fields changed (`query`, `retrievalDetails.evidence.0.title`, ...). A clean record is
 * returned as it is.
 */
export function sanitizeToolInvocationRecord(record: ToolInvocationRecord): ToolInvocationRecord {
  const changed: string[] = [];
  const sanitized = clean(record, "", changed) as ToolInvocationRecord;
  if (changed.length === 0) return record;
  const listed = changed.length > maxListedFields ? [...changed.slice(0, maxListedFields), "…"] : changed;
  return { ...sanitized, retrievalDetails: { ...sanitized.retrievalDetails, sanitizedFields: listed } };
}

function cleanText(text: string): string {
  unstorable.lastIndex = 0;
  return unstorable.test(text) ? text.replace(unstorable, "\ufffd") : text;
}

function clean(value: unknown, path: string, changed: string[]): unknown {
  if (typeof value === "string") {
    const text = cleanText(value);
    if (text !== value) changed.push(path);
    return text;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((entry, index) => {
      const next = clean(entry, join(path, String(index)), changed);
      if (next !== entry) (copy ??= [...value])[index] = next;
    });
    return copy ?? value;
  }
  if (typeof value === "object" && value !== null) {
    let copy: Record<string, unknown> | undefined;
    const entries = Object.entries(value);
    for (const [key, entry] of entries) {
      const name = cleanText(key);
      const next = clean(entry, join(path, name), changed);
      if (name !== key) changed.push(join(path, name));
      if (name !== key || next !== entry) copy ??= {};
    }
    if (!copy) return value;
    for (const [key, entry] of entries) copy[cleanText(key)] = clean(entry, "", []);
    return copy;
  }
  return value;
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}
