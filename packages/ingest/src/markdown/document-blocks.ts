import { toString as mdastText } from "mdast-util-to-string";
import { cleanHtmlBlock, cleanPhrasing, isMdxEsm } from "./clean-markup.js";
import { inlineCodeValue } from "./inline-code-value.js";
import { frontmatterTypes, nodeRange } from "./markdown-tree.js";
import type { MarkdownNode, MarkdownRoot } from "./markdown-tree.js";
import { needsFullHeadingParse } from "./needs-full-heading-parse.js";
import { parseMarkdownFull } from "./parse-markdown-full.js";

/** A replacement of `source.slice(start, end)` by `text`, made by cleaning. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** A top-level heading: where a section starts. */
export interface HeadingBlock {
  kind: "heading";
  depth: number;
  /** The heading's plain text, cleaned (`""` when nothing is left). */
  text: string;
  /** The heading as Markdown (`## Attributes`), cleaned. */
  markdown: string;
}

/** A top-level block of content: a paragraph, list, code block, table, block quote, HTML... */
export interface ContentBlock {
  kind: "content";
  node: MarkdownNode;
  start: number;
  end: number;
  /** The cleaning edits inside the block, sorted. */
  edits: Edit[];
  /** The block's text: its source slice with the edits applied, without leading blank lines or trailing whitespace. Never empty. */
  text: string;
}

export type DocumentBlock = HeadingBlock | ContentBlock;

/** Nodes that are dropped whole: frontmatter, link definitions, thematic breaks. */
const droppedTypes = new Set<string>([...frontmatterTypes, "definition", "thematicBreak"]);
/** Nodes whose content is never cleaned. */
const verbatimTypes = new Set<string>(["code", "inlineCode", ...frontmatterTypes]);
/** Nodes that hold inline content (phrasing). */
const phrasingTypes = new Set(["paragraph", "heading", "tableCell"]);

/**
 * The top-level blocks of a parsed document, in order, with their cleaned text. Blocks
 * that are only noise (licence comments, `<head>`, MDX imports, JSX wrapper tags) are
 * left out; headings are returned with their plain text for breadcrumbs.
 */
export function documentBlocks(source: string, tree: MarkdownRoot): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  for (const node of tree.children) {
    if (droppedTypes.has(node.type)) continue;
    const [start, end] = nodeRange(node);
    if (node.type === "paragraph" && isMdxEsm(source.slice(start, end))) continue;
    const edits: Edit[] = [];
    collectEdits(source, node, edits);
    if (node.type === "heading") {
      const markdown = applyEdits(source, start, end, edits).trim();
      const text = headingText(source, node, markdown, edits.length > 0);
      blocks.push({ kind: "heading", depth: node.depth ?? 1, text, markdown });
      continue;
    }
    const text = blockText(applyEdits(source, start, end, edits));
    if (text !== "") blocks.push({ kind: "content", node, start, end, edits, text });
  }
  return blocks;
}

/** A block's text without leading blank lines and trailing whitespace (leading indentation stays: it can be code). */
export function blockText(text: string): string {
  return text.replace(/^(?:[ \t]*\r?\n)+/, "").trimEnd();
}

function collectEdits(source: string, node: MarkdownNode, edits: Edit[]): void {
  if (verbatimTypes.has(node.type)) return;
  if (node.type === "html") {
    // Inline HTML is handled with the text around it (see phrasing below).
    const [start, end] = nodeRange(node);
    const raw = source.slice(start, end);
    const text = cleanHtmlBlock(raw);
    if (text !== raw) edits.push({ start, end, text });
    return;
  }
  if (node.children === undefined) return;
  if (phrasingTypes.has(node.type)) {
    const first = node.children[0];
    const last = node.children[node.children.length - 1];
    if (first === undefined || last === undefined) return;
    const start = nodeRange(first)[0];
    const end = nodeRange(last)[1];
    const raw = source.slice(start, end);
    const protectedRanges: Array<[number, number]> = [];
    for (const child of node.children) {
      if (child.type === "inlineCode") {
        const [childStart, childEnd] = nodeRange(child);
        protectedRanges.push([childStart - start, childEnd - start]);
      }
    }
    const text = cleanPhrasing(raw, protectedRanges);
    if (text !== raw) edits.push({ start, end, text });
    return;
  }
  for (const child of node.children) collectEdits(source, child, edits);
}

/** The source slice `[start, end)` with the edits inside it applied. */
export function applyEdits(source: string, start: number, end: number, edits: readonly Edit[]): string {
  let text = "";
  let position = start;
  for (const edit of edits) {
    if (edit.start < start || edit.end > end) continue;
    text += source.slice(position, edit.start) + edit.text;
    position = edit.end;
  }
  return text + source.slice(position, end);
}

/**
 * The largest heading the full inline parser is given, in characters and in emphasis
 * delimiters (`*`, `_`, `~`). Its emphasis pass pairs each closing delimiter with the
 * openers before it, so a heading of 50,000 `*` around a word took minutes; a real heading
 * stays far below both. A heading past either bound keeps the block parse's text, its
 * delimiters as written.
 */
export const maxFullHeadingChars = 1_000;
export const maxFullHeadingDelimiters = 64;
const headingAnchor = /\s*\{#[^}]*\}\s*$/;

/** Whether a heading is small enough for the full inline parse (`maxFullHeadingChars`, `maxFullHeadingDelimiters`). */
function fitsFullParse(markdown: string): boolean {
  if (markdown.length > maxFullHeadingChars) return false;
  let delimiters = 0;
  for (let index = 0; index < markdown.length; index += 1) {
    const code = markdown.charCodeAt(index);
    // *, _ and ~
    if ((code === 42 || code === 95 || code === 126) && ++delimiters > maxFullHeadingDelimiters) return false;
  }
  return true;
}

/**
 * The plain text of a heading: code spans without backticks, links without URLs, HTML
 * and JSX tags gone, a trailing `{#custom-id}` gone, whitespace collapsed. `markdown` is
 * the heading's cleaned source.
 */
function headingText(source: string, heading: MarkdownNode, markdown: string, cleaned: boolean): string {
  let text = "";
  const runs: string[] = [];
  for (const child of heading.children ?? []) {
    if (child.type === "inlineCode") text += inlineCodeValue(source.slice(child.start, child.end));
    else if (child.type === "text") {
      const value = source.slice(child.start, child.end);
      text += value;
      runs.push(value);
    }
  }
  // The block parse leaves emphasis, links, escapes and JSX as text: parse the cleaned heading again in full when it may hold
  // them, unless it is too large for the inline parser to stay linear.
  if (needsFullHeadingParse(runs, markdown, cleaned) && fitsFullParse(markdown)) {
    const reparsed = parseMarkdownFull(markdown).children[0];
    text = reparsed?.type === "heading" ? mdastText(reparsed, { includeHtml: false }) : "";
  }
  return text.replace(headingAnchor, "").replace(/\s+/g, " ").trim();
}
