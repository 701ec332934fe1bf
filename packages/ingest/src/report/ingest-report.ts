import type { KnowledgeEntry } from "@lookup-knowledge/core";

/** What an `ingestFolder` run did. */
export interface IngestReport {
  /** The root folder, as given. */
  root: string;
  /** Files found by the include/exclude patterns. */
  files: number;
  /** Documents parsed and written in this run (added + changed). */
  parsed: number;
  /** Files skipped because their bytes (and the options) did not change. */
  unchanged: number;
  added: number;
  changed: number;
  /** Documents whose file is gone; their chunks were deleted. */
  removed: number;
  /** Chunk records upserted in this run. */
  chunksWritten: number;
  /**
   * Symbolic links that were not followed (the default, or a target outside the root, or a
   * file or folder already read by another path), with the reason, in path order. Not
   * counted in `files`; a document ingested before through such a link is removed.
   */
  skipped: Array<{ source: string; reason: string }>;
  /** Files that could not be ingested, with the reason; they were skipped (an earlier version's chunks stay). */
  failed: Array<{ source: string; reason: string }>;
  /**
   * Files with nothing to index (no body text and no frontmatter title or description), in
   * path order, changed or not: not documents, no chunk, no entry. One that was a document
   * before also counts in `removed`. `files` = `parsed + unchanged + noContent.length + failed.length`.
   */
  noContent: string[];
  /** The L0 entry of every current document (each has chunks in the store), unchanged ones included, from the manifest. */
  entries: KnowledgeEntry[];
  durationMs: number;
}
