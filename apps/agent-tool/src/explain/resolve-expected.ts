import { readIngestManifest } from "@lookup-knowledge/ingest/manifest";
import { evidenceKeyOf } from "../document-id-of.js";
import { canFetchRecords, knowledgeRecordId, type FetchedRecord, type KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import type { ExplainExpected } from "./lookup-explanation.js";

/** The expected document or chunk, resolved, with the metadata of its chunks when the store can read them. */
export interface ExpectedTarget extends ExplainExpected {
  /** By chunk index: the record the store holds (for the filter check), when it can read records. */
  records: Map<number, FetchedRecord>;
}

const chunkPattern = /^(.+)#chunk-(\d+)$/;
const markdownExtension = /\.(?:md|mdx|markdown)$/i;
/** The most chunk records read for the filter check of one document. */
const maxRecordsRead = 100;

function asDocId(text: string): string {
  return text
    .normalize("NFC")
    .replaceAll("\\", "/")
    .replace(/^(?:\.\/|\/)+/, "")
    .replace(markdownExtension, "");
}

/**
 * Resolves `expected` (a source path such as `billing/refunds.md`, `.md` optional; a document
 * id; or an evidence key `billing/refunds#chunk-2`) against the ingest manifest of the store's
 * state folder and, when the port can read records by id, the store itself.
 */
export async function resolveExpected(input: {
  expected: string;
  port: KnowledgeSearchPort;
  stateDirectory?: string;
}): Promise<ExpectedTarget> {
  // A document_id a model cited (`documentIdOf`) names its key; anything else is read as written.
  const given = input.expected.trim();
  const text = evidenceKeyOf(given) ?? given;
  const manifest = input.stateDirectory ? await readIngestManifest(input.stateDirectory) : undefined;
  const documents = manifest?.documents ?? {};
  const chunk = chunkPattern.exec(text);
  const docId = chunk?.[1] !== undefined ? asDocId(chunk[1]) : asDocId(text);
  // Own properties only: `documents["constructor"]` of a manifest read from JSON is Object's constructor.
  const known =
    (Object.hasOwn(documents, docId) ? documents[docId] : undefined) ??
    Object.values(documents).find((document) => document.source === text);
  const resolvedDocId = known ? asDocId(known.source) : docId;
  const chunkIndex = chunk?.[2] === undefined ? undefined : Number(chunk[2]);
  const base: { input: string; docId: string; source?: string; chunkCount?: number } = {
    input: input.expected,
    docId: resolvedDocId,
    ...(known ? { source: known.source, chunkCount: known.chunkCount } : {}),
  };
  const indexes =
    chunkIndex !== undefined ? [chunkIndex] : Array.from({ length: Math.min(known?.chunkCount ?? 1, maxRecordsRead) }, (_, index) => index);
  const records = new Map<number, FetchedRecord>();
  let fetched = false;
  if (canFetchRecords(input.port)) {
    try {
      const found = await input.port.fetchRecords(indexes.map((index) => knowledgeRecordId(resolvedDocId, index)));
      fetched = true;
      found.forEach((record, position) => {
        const index = indexes[position];
        if (record && index !== undefined) records.set(index, record);
      });
    } catch {
      // The store could not read them back: the manifest decides.
    }
  }
  // A store without a manifest here (another program ingested it) still names the source.
  const recordSource = [...records.values()].map((record) => record.metadata["source"]).find((source) => typeof source === "string");
  if (base.source === undefined && typeof recordSource === "string") base.source = recordSource;
  const inManifest = known !== undefined && (chunkIndex === undefined || chunkIndex < known.chunkCount);
  const inIndex = fetched ? records.size > 0 : inManifest;
  if (chunkIndex !== undefined) {
    return { ...base, kind: "chunk", evidenceKey: knowledgeRecordId(resolvedDocId, chunkIndex), inIndex, records };
  }
  return { ...base, kind: "document", inIndex, records };
}
