import { toString as mdastText } from "mdast-util-to-string";
import { parseMarkdownFull } from "../src/markdown/parse-markdown-full.js";

/**
 * A heading's plain text as the full parse gives it, its `{#anchor}` gone and spaces collapsed:
 * what `documentBlocks` must give for a heading it reads without the full parse.
 */
export function fullHeadingText(markdown: string): string {
  const heading = parseMarkdownFull(markdown).children[0];
  const text = heading?.type === "heading" ? mdastText(heading, { includeHtml: false }) : "";
  return text
    .replace(/\s*\{#[^}]*\}\s*$/, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** What sent every heading to the full parse before `mayHoldInlineSyntax` (40dd245, issue 36 item 6). */
export const formerHeadingTrigger = /[*_[\]!&\\~<{]/;
