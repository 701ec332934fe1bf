import { mayHoldInlineSyntax } from "./may-hold-inline-syntax.js";

/**
 * The characters that sent every heading to the full parse before `mayHoldInlineSyntax`
 * (40dd245): inline syntax the block parse leaves as text, and the `{` of shortcodes and MDX
 * comments. Every character `mayHoldInlineSyntax` looks for is among them, so a text run
 * without any of them needs no second test.
 */
const formerSyntax = /[*_[\]!&\\~<{]/;
/** What the full parse changes in text that holds no syntax: NUL, and two spaces before a line end (a hard break). */
const changedByFullParse = /\0| {2}[\r\n]/;

/**
 * Whether a heading's plain text must come from the full inline parse of its cleaned Markdown
 * (`markdown`), from its text runs as the block parse left them (`runs`, without its code
 * spans and inline HTML) and whether the cleaning changed it (`cleaned`). One rule, each run
 * tested once:
 *
 * - a heading the cleaning changed goes when a run holds any character of the former rule
 *   (the `{` of shortcodes among them);
 * - any other heading goes when a run may hold inline syntax (`mayHoldInlineSyntax`);
 * - and also when a run holds a character of the former rule and the heading holds a NUL or a
 *   hard break, which the full parse changes outside any syntax (NUL to U+FFFD, the line end
 *   dropped): those headings went before `mayHoldInlineSyntax`, and their text stays what it
 *   was (issue 36 review).
 */
export function needsFullHeadingParse(runs: readonly string[], markdown: string, cleaned: boolean): boolean {
  let former = false;
  for (const run of runs) {
    if (!formerSyntax.test(run)) continue;
    if (cleaned || mayHoldInlineSyntax(run)) return true;
    former = true;
  }
  return former && changedByFullParse.test(markdown);
}
