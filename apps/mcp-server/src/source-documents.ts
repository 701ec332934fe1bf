import { createHash } from "node:crypto";
import { readFile, realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { LookupKnowledgeError, type MetadataFilter } from "@lookup-knowledge/core";
import { readIngestManifest, type IngestManifest } from "@lookup-knowledge/ingest/manifest";
import type { McpServerErrorCode } from "./mcp-server-error-code.js";
import { canFetchRecords, knowledgeRecordId, matchesFilter, type KnowledgeSearchPort } from "@lookup-knowledge/search-port";

/** The scheme and prefix of a source document's resource URI: `knowledge://source/billing/refunds.md`. */
export const sourceUriPrefix = "knowledge://source/";

/** A source document the server offers as a resource. */
export interface SourceDocument {
  uri: string;
  /** Its path relative to the ingested folder, as ingested. */
  source: string;
  title?: string;
  docId: string;
}

/** The URI of a source path: each segment percent-encoded, the slashes kept. */
export function sourceUri(source: string): string {
  return sourceUriPrefix + source.split("/").map(encodeURIComponent).join("/");
}

/** Where the server finds what the last ingest recorded: the store's state folder and its port. */
export interface SourceDocumentsContext {
  stateDirectory: string;
  port: KnowledgeSearchPort;
  /** The server's fixed filter: a document is offered only when its first chunk satisfies it. */
  filter?: MetadataFilter;
}

/**
 * The documents of the last ingest, by source path. Under a fixed filter, only those whose
 * first chunk the filter admits (a store that cannot read chunks back offers none then), so
 * a tenant never sees another tenant's documents.
 */
export async function listSourceDocuments(context: SourceDocumentsContext): Promise<SourceDocument[]> {
  const manifest = await readIngestManifest(context.stateDirectory);
  if (manifest === undefined) return [];
  const documents = Object.entries(manifest.documents).map(([docId, document]) => toSourceDocument(docId, document));
  const admitted = await admittedByFilter(context, documents);
  return admitted.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}

function toSourceDocument(docId: string, document: IngestManifest["documents"][string]): SourceDocument {
  return {
    uri: sourceUri(document.source),
    source: document.source,
    docId,
    ...(document.entry.title ? { title: document.entry.title } : {}),
  };
}

async function admittedByFilter(context: SourceDocumentsContext, documents: SourceDocument[]): Promise<SourceDocument[]> {
  const { filter, port } = context;
  if (filter === undefined) return documents;
  if (!canFetchRecords(port)) return [];
  const admitted: SourceDocument[] = [];
  for (let start = 0; start < documents.length; start += 100) {
    const batch = documents.slice(start, start + 100);
    const records = await port.fetchRecords(batch.map((document) => knowledgeRecordId(document.docId, 0)));
    batch.forEach((document, index) => {
      const record = records[index];
      if (record !== undefined && matchesFilter(record.metadata, filter)) admitted.push(document);
    });
  }
  return admitted;
}

const marker = "lookup-knowledge.error.mcp-source-read";
const symbol = Symbol.for(marker);

/** Why a source document cannot be read (`source_not_found`, `source_unavailable`): one sentence for the client. */
export class SourceReadError extends LookupKnowledgeError<Extract<McpServerErrorCode, "source_not_found" | "source_unavailable">> {
  private readonly [symbol] = true;

  constructor(message: string, notFound: boolean) {
    super({ code: notFound ? "source_not_found" : "source_unavailable", message });
    this.name = "SourceReadError";
  }

  static override isInstance(error: unknown): error is SourceReadError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}

/**
 * The text of the source document at `uri`, read from the ingested folder as the last ingest
 * saw it: refused when the URI names no document offered, when the file left the folder
 * (a link pointing outside it) or is gone, and when it changed since it was ingested (the
 * index would not match what the client reads).
 */
export async function readSourceDocument(
  context: SourceDocumentsContext,
  uri: string,
): Promise<{ document: SourceDocument; text: string }> {
  const manifest = await readIngestManifest(context.stateDirectory);
  const found = Object.entries(manifest?.documents ?? {}).find(([, candidate]) => sourceUri(candidate.source) === uri);
  const notFound = () => new SourceReadError(`No source document has the URI ${JSON.stringify(uri.slice(0, 200))}.`, true);
  if (manifest === undefined || found === undefined) throw notFound();
  const [docId, entry] = found;
  const document = toSourceDocument(docId, entry);
  // Under a fixed filter, a document it does not admit is as unknown as one never ingested.
  if ((await admittedByFilter(context, [document])).length === 0) throw notFound();
  const root = manifest.root;
  if (root === undefined) {
    throw new SourceReadError(`The source of ${document.source} is not known: ingest the folder again to record it.`, false);
  }
  const bytes = await readInside(root, document.source);
  if (createHash("sha256").update(bytes).digest("hex") !== entry.hash) {
    throw new SourceReadError(`${document.source} changed since it was ingested: run lookup-knowledge ingest again.`, false);
  }
  return { document, text: new TextDecoder().decode(bytes) };
}

/** The largest source document served, in bytes. */
export const maxSourceBytes = 5 * 1024 * 1024;

/** The bytes of `source` under `root`, refusing a path or link that leads outside `root`. */
async function readInside(root: string, source: string): Promise<Uint8Array> {
  const outside = () => new SourceReadError(`${source} is not inside the ingested folder.`, false);
  const path = resolve(root, source);
  if (isAbsolute(source) || !isInside(resolve(root), path)) throw outside();
  try {
    const [realRoot, realPath] = await Promise.all([realpath(root), realpath(path)]);
    if (!isInside(realRoot, realPath)) throw outside();
    const size = (await stat(realPath)).size;
    if (size > maxSourceBytes) {
      throw new SourceReadError(`${source} is too large to serve (${size} bytes; at most ${maxSourceBytes}).`, false);
    }
    return await readFile(realPath);
  } catch (error) {
    if (SourceReadError.isInstance(error)) throw error;
    throw new SourceReadError(`${source} can no longer be read from the ingested folder.`, false);
  }
}

function isInside(root: string, path: string): boolean {
  const rest = relative(root, path);
  return rest !== "" && !rest.startsWith(`..${sep}`) && rest !== ".." && !isAbsolute(rest);
}
