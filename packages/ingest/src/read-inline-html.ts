import type { InlineContext, InlineParser } from "@lezer/markdown";

// CommonMark's raw HTML (spec 0.31, "Raw HTML"), which chunking treats as inline HTML: an
// open tag, a closing tag, a comment, a processing instruction, a declaration or a CDATA
// section. Whitespace is spaces, tabs and line endings (a blank line cannot occur inside a
// paragraph, so "up to one line ending" is the same thing there).
const attribute = String.raw`(?:[ \t\n]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t\n]*=[ \t\n]*(?:[^ \t\n"'=<>\x60]+|'[^']*'|"[^"]*"))?)`;
const rawHtml = new RegExp(
  [
    String.raw`[A-Za-z][A-Za-z0-9-]*${attribute}*[ \t\n]*\/?>`,
    String.raw`\/[A-Za-z][A-Za-z0-9-]*[ \t\n]*>`,
    "!--(?:-?>|[^]*?-->)",
    String.raw`\?[^]*?\?>`,
    "![A-Za-z][^>]*>",
    String.raw`!\[CDATA\[[^]*?\]\]>`,
  ].join("|"),
  "y",
);

/**
 * The inline parser for raw HTML, in place of the parser's own `HTMLTag` (which accepts
 * tag names and attributes CommonMark does not): marks `<...>` as an `HTMLTag` element.
 */
export const readInlineHtml: InlineParser = {
  name: "HTMLTag",
  parse(cx: InlineContext, next: number, start: number): number {
    if (next !== 60 /* < */) return -1;
    rawHtml.lastIndex = start + 1 - cx.offset;
    const match = rawHtml.exec(cx.text);
    if (match === null) return -1;
    return cx.addElement(cx.elt("HTMLTag", start, start + 1 + match[0].length));
  },
};
