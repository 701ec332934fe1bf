import { describeValue } from "@lookup-knowledge/core";
import type { IngestManifest } from "./ingest-manifest.js";

/** What is wrong with a manifest, and where (`documents.a.hash`; empty: the whole value). */
export class ManifestIssue extends Error {
  constructor(
    readonly where: string[],
    message: string,
  ) {
    super(message);
  }
}

// Checked by hand, in place, not by a zod schema: a query opens the manifest of the folder it
// searches, and zod took 0.7 s of the 1.2 s it cost at 100,000 documents (issue 36 item 5),
// besides loading ~95 modules; a checked copy still cost 0.4-1 s there. The checks are the
// schema's; fields it did not name are left as read (the CLI's ingest writes none).

type Fields = Record<string, unknown>;

// Each check takes the path of the object it looks in and the key it looks at: the path of an
// issue is built only when there is one (a manifest of 100,000 documents has a million fields).

function fields(value: unknown, where: () => string[]): Fields {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new ManifestIssue(where(), `must be an object, got ${describe(value)}`);
  return value as Fields;
}

function text(value: unknown, where: () => string[], key: string): void {
  if (typeof value !== "string") throw new ManifestIssue([...where(), key], `must be a string, got ${describe(value)}`);
}

function optionalText(value: unknown, where: () => string[], key: string): void {
  if (value !== undefined) text(value, where, key);
}

function optionalTexts(value: unknown, where: () => string[], key: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw new ManifestIssue([...where(), key], `must be an array of strings, got ${describe(value)}`);
  for (let position = 0; position < value.length; position += 1) text(value[position], () => [...where(), key], String(position));
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

// A refused value as an error shows it: short, and never by JSON.stringify, which echoed a
// megabyte string whole, printed 1e400 (Infinity) as null, and overflowed the stack on a
// deeply nested array (a RangeError instead of the manifest's error).
function shown(value: unknown): string {
  return typeof value === "number" || typeof value === "string" ? describeValue(value) : describe(value);
}

function checkDocument(value: unknown, where: () => string[]): void {
  const document = fields(value, where);
  text(document.source, where, "source");
  text(document.hash, where, "hash");
  const chunkCount = document.chunkCount;
  if (typeof chunkCount !== "number" || !Number.isSafeInteger(chunkCount) || chunkCount < 0) {
    throw new ManifestIssue([...where(), "chunkCount"], `must be a whole number from 0, got ${shown(chunkCount)}`);
  }
  const inEntry = () => [...where(), "entry"];
  const entry = fields(document.entry, inEntry);
  text(entry.id, inEntry, "id");
  text(entry.source, inEntry, "source");
  optionalText(entry.title, inEntry, "title");
  optionalTexts(entry.keywords, inEntry, "keywords");
  optionalText(entry.domain, inEntry, "domain");
  optionalTexts(entry.entities, inEntry, "entities");
}

/** `value` (parsed JSON) as a manifest, checked field by field; `ManifestIssue` for the first field that is wrong. */
export function checkIngestManifest(value: unknown): IngestManifest {
  const manifest = fields(value, () => []);
  if (manifest.version !== 1) throw new ManifestIssue(["version"], `must be 1, got ${shown(manifest.version)}`);
  optionalText(manifest.root, () => [], "root");
  text(manifest.optionsHash, () => [], "optionsHash");
  const documents = fields(manifest.documents, () => ["documents"]);
  for (const docId in documents) checkDocument(documents[docId], () => ["documents", docId]);
  if (manifest.noContent !== undefined) {
    const noContent = fields(manifest.noContent, () => ["noContent"]);
    for (const docId in noContent) {
      const where = () => ["noContent", docId];
      const file = fields(noContent[docId], where);
      text(file.source, where, "source");
      text(file.hash, where, "hash");
    }
  }
  return manifest as unknown as IngestManifest;
}
