import type { TreeCursor } from "@lezer/common";
import { parser as commonMark } from "@lezer/markdown";
import type { MarkdownNode, MarkdownNodeType, MarkdownRoot } from "./markdown-tree.js";
import { readFrontmatterBlock } from "../frontmatter/read-frontmatter-block.js";
import { readHtmlBlock } from "./read-html-block.js";
import { readInlineHtml } from "./read-inline-html.js";
import { readTable } from "./read-table.js";
import { skipPlainText } from "./skip-plain-text.js";

/**
 * The block parser: CommonMark with GFM tables. Of the inline constructs only code spans
 * and raw HTML are parsed (chunk text is sliced from the source, so emphasis, links,
 * escapes and entities would only cost time); heading text that may use them is parsed
 * again in full (`headingText`). Plain text between them is skipped in one step (`skipPlainText`).
 */
const blockParser = commonMark.configure([
  readTable,
  {
    remove: ["Escape", "Entity", "Emphasis", "HardBreak", "Link", "Image", "LinkEnd"],
    parseBlock: [readHtmlBlock],
    parseInline: [readInlineHtml, skipPlainText],
  },
]);

type Kind = MarkdownNodeType | "atxHeading" | "setextHeading" | "indentedCode" | "inlineHtml" | "skip";

const kindByName: Record<string, Kind> = {
  Paragraph: "paragraph",
  ATXHeading1: "atxHeading",
  ATXHeading2: "atxHeading",
  ATXHeading3: "atxHeading",
  ATXHeading4: "atxHeading",
  ATXHeading5: "atxHeading",
  ATXHeading6: "atxHeading",
  SetextHeading1: "setextHeading",
  SetextHeading2: "setextHeading",
  HorizontalRule: "thematicBreak",
  Blockquote: "blockquote",
  BulletList: "list",
  OrderedList: "list",
  ListItem: "listItem",
  FencedCode: "code",
  CodeBlock: "indentedCode",
  HTMLBlock: "html",
  CommentBlock: "html",
  ProcessingInstructionBlock: "html",
  LinkReference: "definition",
  Table: "table",
  TableHeader: "tableRow",
  TableRow: "tableRow",
  TableCell: "tableCell",
  InlineCode: "inlineCode",
  HTMLTag: "inlineHtml",
};

/** Kind of each node type of the parser, by type id. */
const kinds: Kind[] = blockParser.nodeSet.types.map((type) => kindByName[type.name] ?? "skip");

/**
 * Parses a Markdown document (CommonMark, GFM tables and YAML, TOML or JSON frontmatter) into its blocks,
 * with source offsets, for chunking: block structure, code spans and inline HTML.
 */
export function parseMarkdownBlocks(text: string): MarkdownRoot {
  const frontmatter = readFrontmatterBlock(text);
  // The parser splits lines at "\n" only: "\r\n" and "\r" become line endings of the same length.
  let input = text.includes("\r") ? text.replace(/\r\n?/g, (ending) => (ending.length === 2 ? " \n" : "\n")) : text;
  // The frontmatter is blanked out (offsets stay), so the parser sees blank lines there.
  if (frontmatter !== undefined) input = input.slice(0, frontmatter.end).replace(/[^\n]/g, " ") + input.slice(frontmatter.end);
  const children: MarkdownNode[] = [];
  if (frontmatter !== undefined) children.push({ type: frontmatter.format, start: 0, end: frontmatter.end, value: frontmatter.value });
  const cursor = blockParser.parse(input).cursor();
  convertChildren(cursor, { input, text }, children);
  return { type: "root", start: 0, end: text.length, children };
}

/** The text as parsed (line endings as "\n", frontmatter blanked) and as given. */
interface Source {
  input: string;
  text: string;
}

function convertChildren(cursor: TreeCursor, source: Source, into: MarkdownNode[]): void {
  if (!cursor.firstChild()) return;
  do {
    const node = convert(cursor, source);
    if (node !== undefined) into.push(node);
  } while (cursor.nextSibling());
  cursor.parent();
}

function convert(cursor: TreeCursor, source: Source): MarkdownNode | undefined {
  const kind = kinds[cursor.type.id] ?? "skip";
  const { from, to } = cursor;
  switch (kind) {
    case "skip":
    case "text":
    case "yaml":
      return undefined;
    case "inlineHtml":
      return { type: "html", start: from, end: to };
    case "inlineCode":
      return { type: "inlineCode", start: from, end: to };
    case "indentedCode":
      // The code starts where its indentation does (the parser's node starts after it).
      return { type: "code", start: indentStart(source.input, from), end: withoutReturn(source, to) };
    case "paragraph":
    case "tableCell":
      return phrasing(kind, cursor, source, from, to);
    case "atxHeading":
    case "setextHeading":
      return heading(kind, cursor, source);
    case "blockquote":
    case "list":
    case "listItem":
    case "table":
    case "tableRow": {
      const marker = kind === "listItem" ? listMarkStart(cursor) : from;
      const children: MarkdownNode[] = [];
      convertChildren(cursor, source, children);
      if (kind !== "list" && kind !== "listItem") return { type: kind, start: from, end: withoutReturn(source, to), children };
      // A list starts at its first item's marker, and an item runs from its marker to the end
      // of its last block (the parser's nodes start at the line's indentation, and an item
      // may take in a quote's blank line after it).
      if (kind === "list") return { type: kind, start: children[0]?.start ?? from, end: listEnd(source, to), children };
      const last = children[children.length - 1];
      return { type: kind, start: marker, end: last === undefined ? to : last.end, children };
    }
    default:
      return { type: kind, start: from, end: withoutReturn(source, to) };
  }
}

/** A heading: its level from the node name, its content between the marks. */
function heading(kind: "atxHeading" | "setextHeading", cursor: TreeCursor, source: Source): MarkdownNode {
  const { from, to } = cursor;
  const name = cursor.type.name;
  const depth = Number(name.charAt(name.length - 1));
  let contentStart = from;
  let contentEnd = to;
  if (cursor.firstChild()) {
    do {
      if (cursor.type.name !== "HeaderMark") continue;
      if (kind === "setextHeading") contentEnd = Math.min(contentEnd, cursor.from);
      else if (cursor.from === from) contentStart = cursor.to;
      else contentEnd = Math.min(contentEnd, cursor.from);
    } while (cursor.nextSibling());
    cursor.parent();
  }
  const content = phrasing("heading", cursor, source, contentStart, contentEnd);
  return { type: "heading", start: from, end: to, depth, children: content.children ?? [] };
}

/** Phrasing content in `[from, to)`, trimmed of whitespace: code spans, inline HTML and the text between them. */
function phrasing(type: "paragraph" | "tableCell" | "heading", cursor: TreeCursor, source: Source, from: number, to: number): MarkdownNode {
  const { input, text } = source;
  let start = from;
  let end = to;
  while (start < end && isWhitespace(input.charCodeAt(start))) start += 1;
  while (end > start && isWhitespace(input.charCodeAt(end - 1))) end -= 1;
  // A paragraph ends with its last line, trailing spaces included (not a "\r" line ending).
  let blockEnd = to;
  while (blockEnd > end && (input.charCodeAt(blockEnd - 1) === 10 || text.charCodeAt(blockEnd - 1) === 13)) blockEnd -= 1;
  const children: MarkdownNode[] = [];
  let position = start;
  if (cursor.firstChild()) {
    do {
      const kind = kinds[cursor.type.id];
      if (kind !== "inlineCode" && kind !== "inlineHtml") continue;
      if (cursor.from < start || cursor.to > end) continue;
      if (cursor.from > position) children.push({ type: "text", start: position, end: cursor.from });
      children.push({ type: kind === "inlineCode" ? "inlineCode" : "html", start: cursor.from, end: cursor.to });
      position = cursor.to;
    } while (cursor.nextSibling());
    cursor.parent();
  }
  if (end > position) children.push({ type: "text", start: position, end });
  if (type === "heading") return { type, start: from, end: to, children };
  return { type, start, end: type === "paragraph" ? blockEnd : end, children };
}

/** A container's end before a "\r" of its last line ending. */
function withoutReturn(source: Source, end: number): number {
  return end > 0 && source.text.charCodeAt(end - 1) === 13 ? end - 1 : end;
}

/** A list ends after the spaces of the line it ends on (a quote's `> ` after its last item, say). */
function listEnd(source: Source, to: number): number {
  let end = withoutReturn(source, to);
  while (end < source.text.length && (source.text.charCodeAt(end) === 32 || source.text.charCodeAt(end) === 9)) end += 1;
  return end;
}

/** Where the list item's marker starts (its first child, `ListMark`). */
function listMarkStart(cursor: TreeCursor): number {
  let start = cursor.from;
  if (cursor.firstChild()) {
    if (cursor.type.name === "ListMark") start = cursor.from;
    cursor.parent();
  }
  return start;
}

/**
 * The start of the four columns of indentation before an indented code block's text: the
 * last position at most four columns before it in the run of spaces and tabs it follows
 * (tabs stop every four columns, counted from the start of the run).
 */
function indentStart(input: string, from: number): number {
  let runStart = from;
  while (runStart > 0 && (input.charCodeAt(runStart - 1) === 32 || input.charCodeAt(runStart - 1) === 9)) runStart -= 1;
  const columns: number[] = [0];
  for (let index = runStart; index < from; index += 1) {
    const column = columns[columns.length - 1] as number;
    columns.push(input.charCodeAt(index) === 9 ? column + 4 - (column % 4) : column + 1);
  }
  const target = (columns[columns.length - 1] as number) - 4;
  let offset = columns.length - 1;
  while (offset > 0 && (columns[offset] as number) > target) offset -= 1;
  return runStart + offset;
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10;
}
