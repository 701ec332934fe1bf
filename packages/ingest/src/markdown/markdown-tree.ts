/** The kinds of node `parseMarkdownBlocks` gives (the mdast names, for what chunking needs). */
export type MarkdownNodeType =
  | "paragraph"
  | "heading"
  | "thematicBreak"
  | "blockquote"
  | "list"
  | "listItem"
  | "code"
  | "html"
  | "definition"
  | "table"
  | "tableRow"
  | "tableCell"
  | "yaml"
  | "toml"
  | "json"
  | "text"
  | "inlineCode";

/**
 * A node of a parsed document, in source offsets: `start` is the offset of its first
 * character, `end` the offset just past its last. Containers (lists, items, quotes, tables,
 * rows) and phrasing (paragraphs, headings, cells) have `children`; phrasing's children are
 * `text`, `inlineCode` and `html` (inline HTML) and together cover its content.
 */
export interface MarkdownNode {
  readonly type: MarkdownNodeType;
  readonly start: number;
  readonly end: number;
  readonly children?: MarkdownNode[];
  /** A heading's level, 1 to 6. */
  readonly depth?: number;
  /** The frontmatter's text (`yaml`, `toml`: without its fences; `json`: the whole object). */
  readonly value?: string;
}

/** A parsed document: its top-level blocks. */
export interface MarkdownRoot {
  readonly type: "root";
  readonly start: number;
  readonly end: number;
  readonly children: MarkdownNode[];
}

/** The node types of a document's frontmatter: YAML (`---`), TOML (`+++`) or a JSON object. */
export const frontmatterTypes: ReadonlySet<MarkdownNodeType> = new Set(["yaml", "toml", "json"]);

/** The start and end offsets of a node in the source. */
export function nodeRange(node: MarkdownNode | MarkdownRoot): [number, number] {
  return [node.start, node.end];
}
