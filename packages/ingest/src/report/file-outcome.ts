import type { KnowledgeRecord } from "@lookup-knowledge/search-port";
import type { IngestManifestDocument } from "../manifest/ingest-manifest.js";
import type { ParsedDocument } from "../document/parsed-document.js";

/** What became of one scanned file in an `ingestFolder` run. */
export type FileOutcome =
  | { kind: "unchanged"; docId: string; known: IngestManifestDocument }
  | { kind: "noContent"; docId: string; source: string; hash: string; parsed: boolean }
  | { kind: "parsed"; docId: string; hash: string; document: ParsedDocument; records: KnowledgeRecord[] }
  | { kind: "failed"; source: string; docId?: string; reason: string };
