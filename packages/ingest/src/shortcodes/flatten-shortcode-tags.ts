import { createShortcodeReader } from "./create-shortcode-reader.js";
import { frontmatterTypes, nodeRange } from "../markdown/markdown-tree.js";
import type { MarkdownNode, MarkdownRoot } from "../markdown/markdown-tree.js";

/** Nodes whose text is never cleaned: shortcodes inside them are examples, not markup. */
const verbatimTypes = new Set<string>(["code", "inlineCode", ...frontmatterTypes]);

/**
 * Puts every Hugo shortcode tag that spans lines (outside code) on one line, by turning
 * its line breaks into spaces, so that the Markdown parser sees it as text of one block.
 * Otherwise a continuation line such as `>}}` (a block quote) or `- item="x"` (a list)
 * would split the tag into blocks that cleaning cannot recognise. Offsets do not move
 * (one character for one), so the result is parsed and sliced in place of `source`.
 *
 * `tree` is `source` parsed, for its code blocks, code spans and frontmatter, which are
 * left as they are, as is a tag that reaches into one. A tag holding a blank line is left
 * too: it is more likely a stray `{{<` in prose than a tag, and joining would merge
 * paragraphs. Returns `source` itself when nothing changed.
 */
export function flattenShortcodeTags(source: string, tree: MarkdownRoot): string {
  if (!source.includes("{{")) return source;
  const protectedRanges: Array<[number, number]> = [];
  collectVerbatimRanges(tree.children, protectedRanges);
  const tagEnd = createShortcodeReader(source);
  let output = "";
  let copied = 0;
  let rangeIndex = 0;
  let index = source.indexOf("{{");
  while (index !== -1) {
    while (rangeIndex < protectedRanges.length && (protectedRanges[rangeIndex]?.[1] ?? 0) <= index) rangeIndex += 1;
    const range = protectedRanges[rangeIndex];
    if (range !== undefined && range[0] <= index) {
      index = source.indexOf("{{", range[1]);
      continue;
    }
    const end = tagEnd(index);
    if (end === -1 || (range !== undefined && range[0] < end)) {
      index = source.indexOf("{{", index + 1);
      continue;
    }
    const tag = source.slice(index, end);
    if (/[\r\n]/.test(tag) && !/\n[ \t]*\r?\n/.test(tag)) {
      output += source.slice(copied, index) + tag.replace(/[\r\n]/g, " ");
      copied = end;
    }
    index = source.indexOf("{{", end);
  }
  return copied === 0 ? source : output + source.slice(copied);
}

/** The ranges of code blocks, code spans and frontmatter at any depth, in document order. */
function collectVerbatimRanges(nodes: readonly MarkdownNode[], ranges: Array<[number, number]>): void {
  for (const node of nodes) {
    if (verbatimTypes.has(node.type)) ranges.push(nodeRange(node));
    else if (node.children !== undefined) collectVerbatimRanges(node.children, ranges);
  }
}
