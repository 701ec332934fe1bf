import type { Chunk } from "../chunking/chunk.js";
import { chunkBlocks } from "../chunking/chunk-blocks.js";
import { documentBlocks } from "../markdown/document-blocks.js";
import { DocumentError } from "./document-error.js";
import { documentId } from "./document-id.js";
import { fileTitle } from "./file-title.js";
import { flattenShortcodeTags } from "../shortcodes/flatten-shortcode-tags.js";
import { frontmatterChunks } from "../frontmatter/frontmatter-chunks.js";
import type { IngestOptions } from "../options/ingest-options.js";
import { boundNesting } from "../markdown/bound-nesting.js";
import { frontmatterTypes } from "../markdown/markdown-tree.js";
import type { MarkdownNodeType } from "../markdown/markdown-tree.js";
import { parseMarkdownBlocks } from "../markdown/parse-markdown-blocks.js";
import type { ParsedDocument } from "./parsed-document.js";
import { readFrontmatter } from "../frontmatter/read-frontmatter.js";
import type { FrontmatterFields } from "../frontmatter/read-frontmatter.js";
import { unclosedFrontmatter } from "../frontmatter/read-frontmatter-block.js";
import type { FrontmatterFormat } from "../frontmatter/read-frontmatter-block.js";
import { resolveIngestOptions } from "../options/resolve-ingest-options.js";
import { sha256 } from "../manifest/sha256.js";

/**
 * Parses one Markdown or MDX document into its identity, metadata and chunks.
 *
 * - `source` is the file's posix path relative to the ingest root; `docId` comes from it.
 * - Frontmatter is YAML (`---`), TOML (`+++`) or a JSON object, at the very start of the
 *   file. `title` comes from it, else from the first heading when that is an H1 (never an
 *   H2 or deeper), else from the file name made readable (`fileTitle`: `load-balance.md`
 *   -> "Load balance"; an `_index.md`, `index.md` or `README.md` by its folder's name).
 *   The category is the `categoryField` value, else the first folder of the path.
 * - The body is parsed as GFM Markdown, cleaned (licence comments, `<head>`, MDX imports,
 *   JSX wrappers, Hugo shortcodes) and chunked by headings (see the README for the rules).
 * - A body that gives no chunk (none, or only noise) is replaced by one chunk of the
 *   frontmatter title and description. Without those either, `chunks` is empty: the file
 *   has no content.
 *
 * Throws `DocumentError` (code `invalid_document`, with `source` and `reason`) when the
 * frontmatter is broken: not valid YAML, TOML or JSON, not a mapping, not closed, or a field of the wrong type,
 * and when the text is nested too deeply to parse even after `boundNesting`.
 */
export function parseMarkdownDocument(text: string, input: { source: string; options?: IngestOptions }): ParsedDocument {
  try {
    return parseBoundedDocument(text, input);
  } catch (error) {
    // A structure deeper than every bound (nested inline constructs in a heading, ...) exhausts the stack: skip the file.
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new DocumentError({ source: input.source, reason: "nested too deeply to parse (the parser ran out of stack)", cause: error });
    }
    throw error;
  }
}

function parseBoundedDocument(text: string, input: { source: string; options?: IngestOptions }): ParsedDocument {
  const options = resolveIngestOptions(input.options);
  const { source } = input;
  const docId = documentId(source);
  const contentHash = sha256(text);
  // Nesting past a depth bound is flattened first, so the parse stays near-linear in the size of the text.
  const raw = boundNesting(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const parsed = parseMarkdownBlocks(raw);
  // A shortcode over several lines is put on one line and the text parsed again (offsets do not move).
  const body = flattenShortcodeTags(raw, parsed);
  const tree = body === raw ? parsed : parseMarkdownBlocks(body);

  const first = tree.children[0];
  let fields: FrontmatterFields = { keywords: [], entities: [] };
  if (first !== undefined && isFrontmatter(first.type)) {
    fields = readFrontmatter({ format: first.type, value: first.value ?? "" }, source, options);
  } else {
    const unclosed = unclosedFrontmatter(body);
    if (unclosed !== undefined) throw new DocumentError({ source, reason: unclosed });
  }

  const blocks = documentBlocks(body, tree);
  // Only an H1 that opens the headings: a page that opens with `## Q: ...` is not titled by its
  // first question, nor by an H1 further down that a page opening with `##` uses as a section.
  const firstHeading = blocks.find((block) => block.kind === "heading" && block.text !== "");
  const title = fields.title ?? (firstHeading?.kind === "heading" && firstHeading.depth === 1 ? firstHeading.text : fileTitle(source));
  const category = fields.category ?? firstFolder(source);

  const bodyTexts = chunkBlocks({ source: body, blocks, title, maxChunkChars: options.maxChunkChars, overlapChars: options.overlapChars });
  const texts = bodyTexts.length > 0 ? bodyTexts : frontmatterChunks(fields, title, options.maxChunkChars);
  const chunks = texts.map(
    (chunk, chunkIndex): Chunk => ({
      docId,
      chunkIndex,
      source,
      title,
      breadcrumb: chunk.breadcrumb,
      ...(category === undefined ? {} : { category }),
      keywords: fields.keywords,
      ...(fields.description === undefined ? {} : { description: fields.description }),
      content: chunk.content,
      contentHash: sha256(chunk.content),
    }),
  );
  return {
    docId,
    source,
    title,
    ...(fields.description === undefined ? {} : { description: fields.description }),
    ...(category === undefined ? {} : { category }),
    keywords: fields.keywords,
    entities: fields.entities,
    contentHash,
    chunks,
  };
}

function firstFolder(source: string): string | undefined {
  const parts = source
    .replaceAll("\\", "/")
    .replace(/^(?:\.\/|\/)+/, "")
    .split("/");
  return parts.length > 1 && parts[0] !== "" ? parts[0] : undefined;
}

function isFrontmatter(type: MarkdownNodeType): type is FrontmatterFormat {
  return frontmatterTypes.has(type);
}
