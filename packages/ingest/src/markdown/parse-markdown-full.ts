import { fromMarkdown } from "mdast-util-from-markdown";
import type { Options as FromMarkdownOptions } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

const fullOptions: FromMarkdownOptions = {
  extensions: [gfm()],
  mdastExtensions: [gfmFromMarkdown()],
};

/** Parses a Markdown fragment into mdast with every GFM construct, for text that is shown (headings). */
export function parseMarkdownFull(text: string): ReturnType<typeof fromMarkdown> {
  return fromMarkdown(text, fullOptions);
}
