/** One piece of a document, as it is embedded and searched. */
export interface Chunk {
  /** The document's stable id, from its path (see `documentId`). */
  docId: string;
  /** 0-based position of the chunk in its document. */
  chunkIndex: number;
  /** The file's posix path relative to the ingest root. */
  source: string;
  /** The document title: frontmatter `title`, else the first heading, else the file name. */
  title: string;
  /** `Title > H2 > H3`: the title and the headings the chunk sits under. */
  breadcrumb: string;
  category?: string;
  keywords: string[];
  description?: string;
  /** The chunk text: Markdown sliced from the source, cleaned of MDX and HTML noise. */
  content: string;
  /** sha256 (hex) of `content`. */
  contentHash: string;
}
