import type { ToolInvocationRecord } from "../../record/tool-invocation-record.js";

/** What Postgres `text` and `jsonb` cannot hold: NUL, and UTF-16 surrogates that are not part of a pair. */
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** The most field paths listed in `sanitizedFields`; a longer list ends with `…`. */
const maxListedFields = 20;

/**
 * The record as Postgres can store it: in every string of it (keys of `retrievalDetails`
 * included), each NUL (`\u0000`) and each lone UTF-16 surrogate becomes U+FFFD (`�`).
 * A record that needed it says so in `retrievalDetails.sanitizedFields`, the paths of the
 * fields changed (`query`, `retrievalDetails.evidence.0.title`, ...). Two keys of one object
 * that clean to the same key both stay: the later one gets a suffix (`~2`, `~3`, ...), and
 * is listed under that name. A clean record is returned as it is.
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
      if (next !== entry) {
        copy ??= [...value];
        copy[index] = next;
      }
    });
    return copy ?? value;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    const names = uniqueNames(entries.map(([key]) => key));
    let changedHere = false;
    const cleaned = entries.map(([key, entry], index): [string, unknown] => {
      const name = names[index] ?? key;
      const next = clean(entry, join(path, name), changed);
      if (name !== key) changed.push(join(path, name));
      if (name !== key || next !== entry) changedHere = true;
      return [name, next];
    });
    return changedHere ? Object.fromEntries(cleaned) : value;
  }
  return value;
}

/**
 * The cleaned names of an object's keys, each one unique: a key that needed cleaning and
 * then equals another key (`"k\u0000"` and `"k\ufffd"`, or two keys with different lone
 * surrogates) gets a suffix, `~2`, `~3`, ..., so neither value overwrites the other. Keys
 * that needed no cleaning keep their names.
 */
function uniqueNames(keys: string[]): string[] {
  const names = keys.map(cleanText);
  const taken = new Set(keys.filter((key, index) => names[index] === key));
  return names.map((name, index) => {
    if (name === keys[index]) return name;
    let unique = name;
    for (let suffix = 2; taken.has(unique); suffix += 1) unique = `${name}~${suffix}`;
    taken.add(unique);
    return unique;
  });
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}
