import type { Chunk } from "../chunking/chunk.js";

/** One Markdown file, parsed: its identity, frontmatter metadata and chunks. */
export interface ParsedDocument {
  docId: string;
  /** The file's posix path relative to the ingest root. */
  source: string;
  title: string;
  description?: string;
  category?: string;
  keywords: string[];
  /** Entity terms from the configured frontmatter fields (`entities`, `aliases`, `tags`). */
  entities: string[];
  /** sha256 (hex) of the whole file's bytes. */
  contentHash: string;
  /** Empty when the file has no content: no body text and no frontmatter title or description. */
  chunks: Chunk[];
}
