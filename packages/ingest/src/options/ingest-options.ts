/** How `parseMarkdownDocument` and `ingestFolder` read and chunk a folder of Markdown. */
export interface IngestOptions {
  /** Glob patterns of the files to read, relative to the root. Default `["**\/*.md", "**\/*.mdx"]`. */
  include?: string[];
  /** Glob patterns to leave out. Default `["**\/node_modules/**", "**\/.*\/**"]` (dependencies and hidden folders). */
  exclude?: string[];
  /** The frontmatter field that holds a document's category. Default `"category"`; without it, the first folder of the path; files at the root have none. */
  categoryField?: string;
  /** Frontmatter fields whose values become the L0 entry's entity terms. Default `["entities", "aliases", "tags"]`. */
  entityFields?: string[];
  /** Frontmatter fields whose values become keywords. Default `["keywords"]`. */
  keywordFields?: string[];
  /** Frontmatter fields tried in order for the description. Default `["description", "summary"]`. */
  descriptionFields?: string[];
  /** The size bound of a chunk, in characters. Default 1500. A code block or table bigger than this stays whole. */
  maxChunkChars?: number;
  /** How much of the previous chunk of the same section starts the next one, in characters. Default 150. */
  overlapChars?: number;
  /**
   * Follow symbolic links whose real target is inside the root, reading each file once (by
   * its real path). Default `false`: links are not followed and are reported in `skipped`.
   * Links that point outside the root are never followed.
   */
  followSymlinks?: boolean;
}
