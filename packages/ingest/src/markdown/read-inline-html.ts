import type { InlineContext, InlineParser } from "@lezer/markdown";

// CommonMark's raw HTML (spec 0.31, "Raw HTML"), which chunking treats as inline HTML: an
// open tag, a closing tag, a comment, a processing instruction, a declaration or a CDATA
// section. Whitespace is spaces, tabs and line endings (a blank line cannot occur inside a
// paragraph, so "up to one line ending" is the same thing there).
const attribute = String.raw`(?:[ \t\n]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t\n]*=[ \t\n]*(?:[^ \t\n"'=<>\x60]+|'[^']*'|"[^"]*"))?)`;
const tag = new RegExp(String.raw`[A-Za-z][A-Za-z0-9-]*${attribute}*[ \t\n]*\/?>|\/[A-Za-z][A-Za-z0-9-]*[ \t\n]*>`, "y");

/** The constructs that run to a fixed closing string: what follows `<`, and what closes it. */
const delimited: ReadonlyArray<{ open: RegExp; close: string; minimum: number }> = [
  // `<!-->` and `<!--->` are comments too: the closing string may overlap the opener.
  { open: /!--/y, close: "-->", minimum: 1 },
  { open: /\?/y, close: "?>", minimum: 1 },
  { open: /!\[CDATA\[/y, close: "]]>", minimum: 8 },
  { open: /![A-Za-z]/y, close: ">", minimum: 1 },
];

/**
 * Where each closing string next occurs in the text being parsed, at or after the offset it
 * was looked for from (-1: nowhere), so that a text full of unclosed `<!--` is searched
 * once, not once per opener.
 */
let searched: { text: string; found: Map<string, { from: number; at: number }> } | undefined;

function nextClose(text: string, close: string, from: number): number {
  if (searched?.text !== text) searched = { text, found: new Map() };
  const known = searched.found.get(close);
  // A search from before `from` that found nothing, or found something at or after `from`, still holds.
  if (known !== undefined && known.from <= from && (known.at === -1 || known.at >= from)) return known.at;
  const at = text.indexOf(close, from);
  searched.found.set(close, { from, at });
  return at;
}

/**
 * The inline parser for raw HTML, in place of the parser's own `HTMLTag` (which accepts
 * tag names and attributes CommonMark does not): marks `<...>` as an `HTMLTag` element.
 */
export const readInlineHtml: InlineParser = {
  name: "HTMLTag",
  parse(cx: InlineContext, next: number, start: number): number {
    if (next !== 60 /* < */) return -1;
    const text = cx.text;
    const after = start + 1 - cx.offset;
    for (const { open, close, minimum } of delimited) {
      open.lastIndex = after;
      if (!open.test(text)) continue;
      const end = nextClose(text, close, after + minimum);
      return end === -1 ? -1 : cx.addElement(cx.elt("HTMLTag", start, cx.offset + end + close.length));
    }
    tag.lastIndex = after;
    const match = tag.exec(text);
    if (match === null) return -1;
    return cx.addElement(cx.elt("HTMLTag", start, start + 1 + match[0].length));
  },
};
