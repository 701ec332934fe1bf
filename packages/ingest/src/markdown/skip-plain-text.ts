import type { InlineContext, InlineParser } from "@lezer/markdown";

/** The characters an inline construct the block parser keeps can start at: a code span's backtick, raw HTML's `<`. */
const constructStart = /[`<]/g;

/**
 * An inline parser that runs first and moves the parse past plain text at once: the parser
 * otherwise offers every character of every paragraph, heading and table cell to each inline
 * parser in turn, and all the ones kept (`InlineCode`, `readInlineHtml`) refuse any character
 * but their own first one. So jumping to the next backtick or `<` (or the end) finds the same
 * elements, with one search per run of text instead of several calls a character. It adds no
 * element, and gives way (-1) on a backtick or `<`, so the parser there is the one that decides.
 * Any inline parser added to the block parser must start at one of these characters, or be
 * listed before this one.
 */
export const skipPlainText: InlineParser = {
  name: "SkipPlainText",
  before: "InlineCode",
  parse(cx: InlineContext, next: number, start: number): number {
    if (next === 96 /* ` */ || next === 60 /* < */) return -1;
    constructStart.lastIndex = start + 1 - cx.offset;
    const found = constructStart.exec(cx.text);
    return found === null ? cx.end : cx.offset + found.index;
  },
};
