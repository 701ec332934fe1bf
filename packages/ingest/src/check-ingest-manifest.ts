import type { KnowledgeEntry } from "@lookup-knowledge/core";
import type { IngestManifest, IngestManifestDocument } from "./ingest-manifest.js";

/** What is wrong with a manifest, and where (`documents.a.hash`; empty: the whole value). */
export class ManifestIssue extends Error {
  constructor(
    readonly where: string[],
    message: string,
  ) {
    super(message);
  }
}

// Checked by hand, not by a zod schema: a query opens the manifest of the folder it searches,
// and zod took 0.7 s of the 1.2 s it cost at 100,000 documents (issue 36 item 5), besides
// loading ~95 modules. The checks are the schema's; the copy keeps only the known fields.

type Fields = Record<string, unknown>;

// Each check takes the path of the object it looks in and the key it looks at: the path of an
// issue is built only when there is one (a manifest of 100,000 documents has a million fields).

function fields(value: unknown, where: string[]): Fields {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ManifestIssue(where, "must be an object");
  return value as Fields;
}

function text(value: unknown, where: string[], key: string): string {
  if (typeof value !== "string") throw new ManifestIssue([...where, key], `must be a string, got ${describe(value)}`);
  return value;
}

function optionalText(value: unknown, where: string[], key: string): string | undefined {
  return value === undefined ? undefined : text(value, where, key);
}

function optionalTexts(value: unknown, where: string[], key: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new ManifestIssue([...where, key], `must be an array of strings, got ${describe(value)}`);
  for (let position = 0; position < value.length; position += 1) text(value[position], [...where, key], String(position));
  return [...(value as string[])];
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function entryOf(value: unknown, where: string[]): KnowledgeEntry {
  const entry = fields(value, where);
  const checked: KnowledgeEntry = { id: text(entry.id, where, "id"), source: text(entry.source, where, "source") };
  const title = optionalText(entry.title, where, "title");
  const keywords = optionalTexts(entry.keywords, where, "keywords");
  const domain = optionalText(entry.domain, where, "domain");
  const entities = optionalTexts(entry.entities, where, "entities");
  if (title !== undefined) checked.title = title;
  if (keywords !== undefined) checked.keywords = keywords;
  if (domain !== undefined) checked.domain = domain;
  if (entities !== undefined) checked.entities = entities;
  return checked;
}

function documentOf(value: unknown, where: string[]): IngestManifestDocument {
  const document = fields(value, where);
  const source = text(document.source, where, "source");
  const hash = text(document.hash, where, "hash");
  const chunkCount = document.chunkCount;
  if (typeof chunkCount !== "number" || !Number.isSafeInteger(chunkCount) || chunkCount < 0) {
    throw new ManifestIssue([...where, "chunkCount"], `must be a whole number from 0, got ${JSON.stringify(chunkCount) ?? "nothing"}`);
  }
  return { source, hash, chunkCount, entry: entryOf(document.entry, [...where, "entry"]) };
}

/** The manifest `value` (parsed JSON) holds, checked field by field; `ManifestIssue` for the first field that is wrong. */
export function checkIngestManifest(value: unknown): IngestManifest {
  const manifest = fields(value, []);
  if (manifest.version !== 1) throw new ManifestIssue(["version"], `must be 1, got ${JSON.stringify(manifest.version) ?? "nothing"}`);
  const root = optionalText(manifest.root, [], "root");
  const optionsHash = text(manifest.optionsHash, [], "optionsHash");
  const documents: Record<string, IngestManifestDocument> = {};
  for (const [docId, document] of Object.entries(fields(manifest.documents, ["documents"]))) {
    documents[docId] = documentOf(document, ["documents", docId]);
  }
  const checked: IngestManifest = { version: 1, ...(root === undefined ? {} : { root }), optionsHash, documents };
  if (manifest.noContent !== undefined) {
    const noContent: Record<string, { source: string; hash: string }> = {};
    for (const [docId, file] of Object.entries(fields(manifest.noContent, ["noContent"]))) {
      const where = ["noContent", docId];
      const fileFields = fields(file, where);
      noContent[docId] = { source: text(fileFields.source, where, "source"), hash: text(fileFields.hash, where, "hash") };
    }
    checked.noContent = noContent;
  }
  return checked;
}
