/**
 * Characters that may start inline syntax wherever they stand: emphasis (`*`), links and
 * images (`[`, `]`), escapes (`\`), strikethrough (`~`), raw HTML and autolinks (`<`).
 */
const syntaxAnywhere = /[*[\]\\~<]/;

/**
 * Characters that start inline syntax only in some places: `!` only before `[` (an image),
 * `&` only as a character reference (`&#...;`, `&name;`), and a run of `_` only where it is
 * not between two ASCII letters or digits (there it can neither open nor close emphasis).
 * Anything else (`{` among them: no construct of CommonMark or GFM uses it) is plain text.
 */
const syntaxHere = /!\[|&#|&[A-Za-z0-9]+;|(?<![A-Za-z0-9_])_|_(?![A-Za-z0-9_])/;

/**
 * Whether a text run that the block parse leaves as text may hold inline syntax that a full
 * parse reads differently: emphasis, links, images, escapes, character references,
 * strikethrough, raw HTML or autolinks. False only when a full parse would give the text as it
 * is, so a heading whose text runs all give false need not be parsed again for its plain text
 * (issue 36 item 6: `_` inside a word and Hugo's `{#anchor}` sent about one heading in sixteen
 * through the full parser, whose first calls of an ingest are slow).
 */
export function mayHoldInlineSyntax(text: string): boolean {
  return syntaxAnywhere.test(text) || syntaxHere.test(text);
}
