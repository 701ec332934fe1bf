import type { BlockContext, BlockParser, Line } from "@lezer/markdown";

// CommonMark 0.31's seven kinds of HTML block, read in place of the parser's own reader:
// its patterns for kinds 6 and 7 miss self-closing tags (`<br />`), accept `source` and
// miss `search`, and its blocks start after their indentation where the block starts at
// the line's (or container's) content column.
const blockNames =
  "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|" +
  "fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|" +
  "main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|" +
  "title|tr|track|ul";
const attribute = String.raw`(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>\x60]+|'[^']*'|"[^"]*"))?)`;

/** Each kind's start (tested at the block's first non-space character) and end (a line that contains it; none: a blank line). */
const kinds: ReadonlyArray<{ start: RegExp; end?: RegExp; interrupts: boolean }> = [
  { start: /^<(?:script|pre|style|textarea)(?:[ \t>]|$)/i, end: /<\/(?:script|pre|style|textarea)>/i, interrupts: true },
  { start: /^<!--/, end: /-->/, interrupts: true },
  { start: /^<\?/, end: /\?>/, interrupts: true },
  { start: /^<![A-Za-z]/, end: />/, interrupts: true },
  { start: /^<!\[CDATA\[/, end: /\]\]>/, interrupts: true },
  { start: new RegExp(String.raw`^<\/?(?:${blockNames})(?:[ \t]|\/?>|$)`, "i"), interrupts: true },
  {
    start: new RegExp(String.raw`^(?:<[A-Za-z][A-Za-z0-9-]*${attribute}*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$`),
    interrupts: false,
  },
];

/** How many of the enclosing blocks a line continues (the parser's field, not in its typings). */
function continuedDepth(line: Line): number {
  return (line as unknown as { depth: number }).depth;
}

function kindOf(line: Line, interrupting: boolean): (typeof kinds)[number] | undefined {
  if (line.next !== 60 /* < */) return undefined;
  const rest = line.text.slice(line.pos);
  return kinds.find((kind) => (kind.interrupts || !interrupting) && kind.start.test(rest));
}

/**
 * Reads an HTML block from its start line to its end: the line holding its end pattern
 * (kinds 1-5), or up to the next blank line (kinds 6 and 7), or up to the line that leaves
 * the enclosing quote or list. Kinds 1-6 may interrupt a paragraph; kind 7 may not.
 */
export const readHtmlBlock: BlockParser = {
  name: "HTMLBlock",
  parse(cx: BlockContext, line: Line): boolean {
    const kind = kindOf(line, false);
    if (kind === undefined) return false;
    const from = cx.lineStart + line.basePos;
    const depth = cx.depth;
    let closed = kind.end?.test(line.text.slice(line.pos)) ?? false;
    while (!closed && cx.nextLine()) {
      if (continuedDepth(line) < depth) break;
      if (kind.end === undefined) {
        if (line.pos >= line.text.length) break;
      } else {
        closed = kind.end.test(line.text.slice(line.pos));
      }
    }
    // A block with an end pattern takes the line that holds it.
    if (closed) cx.nextLine();
    cx.addElement(cx.elt("HTMLBlock", from, cx.prevLineEnd()));
    return true;
  },
  endLeaf(_cx: BlockContext, line: Line): boolean {
    return kindOf(line, true) !== undefined;
  },
};
