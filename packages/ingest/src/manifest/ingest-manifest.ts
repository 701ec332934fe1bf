import type { KnowledgeEntry } from "@lookup-knowledge/core";

/** What the manifest remembers of one ingested document. */
export interface IngestManifestDocument {
  /** The file's path relative to the root. */
  source: string;
  /** sha256 (hex) of the file's bytes when it was ingested. */
  hash: string;
  /** How many chunks were written for it. */
  chunkCount: number;
  /** Its L0 knowledge entry. */
  entry: KnowledgeEntry;
}

/**
 * The state of an ingested folder, kept as `ingest-manifest.json` in the data directory:
 * which documents were written from which file contents, under which options.
 */
export interface IngestManifest {
  version: 1;
  /** The absolute path of the folder that was ingested (absent in manifests of older versions). */
  root?: string | undefined;
  /** Hash of the options (and chunking rules version) the documents were chunked with. */
  optionsHash: string;
  /** By `docId`: every document, each with at least one chunk in the store. */
  documents: Record<string, IngestManifestDocument>;
  /**
   * By `docId`: files with nothing to index (no body text, no frontmatter title or
   * description), so an unchanged one is not parsed again. Not documents. Absent when none.
   */
  noContent?: Record<string, { source: string; hash: string }> | undefined;
}
