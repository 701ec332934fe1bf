import type { KnowledgeRecord } from "@lookup-knowledge/search-port";
import { documentToEntry } from "../document/document-to-entry.js";
import type { FileOutcome } from "./file-outcome.js";
import type { IngestManifest, IngestManifestDocument } from "../manifest/ingest-manifest.js";
import type { IngestReport } from "./ingest-report.js";
import type { ParsedDocument } from "../document/parsed-document.js";
import { keyedRecord, ownValue } from "../keyed-records/keyed-record.js";

/** What the outcomes of a run's files come to: the next manifest's documents, what to write, and the counts reported. */
export interface FileOutcomeTally {
  /** By `docId`: the documents the next manifest records. */
  documents: Record<string, IngestManifestDocument>;
  /** The documents parsed in this run, and their records (in the same order). */
  parsed: ParsedDocument[];
  parsedRecords: KnowledgeRecord[][];
  failed: IngestReport["failed"];
  /** By `docId`: the files with nothing to index. */
  noContent: NonNullable<IngestManifest["noContent"]>;
  /** How many of those were parsed in this run (not known from the manifest). */
  noContentParsed: number;
  unchanged: number;
  added: number;
  changed: number;
  /** The `docId`s of the documents in `before` that are documents no more. */
  removed: string[];
}

/**
 * Tallies the outcomes of a run's files (in path order) against the manifest's documents
 * `before` it. `storeKeepsOldChunks` false (a rebuild: the store was emptied): a file that
 * fails has no chunks left, so its document is not kept.
 */
export function tallyFileOutcomes(
  outcomes: readonly FileOutcome[],
  before: Record<string, IngestManifestDocument>,
  storeKeepsOldChunks = true,
): FileOutcomeTally {
  const documents = keyedRecord<IngestManifestDocument>();
  const parsed: ParsedDocument[] = [];
  const parsedRecords: KnowledgeRecord[][] = [];
  const failed: IngestReport["failed"] = [];
  const noContent: NonNullable<IngestManifest["noContent"]> = keyedRecord();
  let noContentParsed = 0;
  let unchanged = 0;
  let added = 0;
  let changed = 0;
  for (const outcome of outcomes) {
    if (outcome.kind === "unchanged") {
      documents[outcome.docId] = outcome.known;
      unchanged += 1;
    } else if (outcome.kind === "parsed") {
      const { docId, document } = outcome;
      parsed.push(document);
      parsedRecords.push(outcome.records);
      documents[docId] = {
        source: document.source,
        hash: outcome.hash,
        chunkCount: document.chunks.length,
        entry: documentToEntry(document),
      };
      if (ownValue(before, docId) === undefined) added += 1;
      else changed += 1;
    } else if (outcome.kind === "noContent") {
      // Not a document: an earlier version's chunks, if any, are removed.
      noContent[outcome.docId] = { source: outcome.source, hash: outcome.hash };
      if (outcome.parsed) noContentParsed += 1;
    } else {
      failed.push({ source: outcome.source, reason: outcome.reason });
      const previous = outcome.docId === undefined ? undefined : ownValue(before, outcome.docId);
      // The old chunks stay in the store; an empty hash makes the next run try the file again.
      // (Older manifests may record documents without chunks: those are not kept.)
      if (storeKeepsOldChunks && outcome.docId !== undefined && previous !== undefined && previous.chunkCount > 0)
        documents[outcome.docId] = { ...previous, hash: "" };
    }
  }
  const removed = Object.keys(before).filter((docId) => documents[docId] === undefined);
  return { documents, parsed, parsedRecords, failed, noContent, noContentParsed, unchanged, added, changed, removed };
}
