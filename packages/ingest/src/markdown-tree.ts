import { fromMarkdown } from "mdast-util-from-markdown";
import type { Options as FromMarkdownOptions } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";

/** The mdast root `fromMarkdown` returns. */
export type MarkdownRoot = ReturnType<typeof fromMarkdown>;
/** Any mdast node below the root. */
export type MarkdownNode = MarkdownRoot["children"][number];
/** An mdast node that has children (root included). */
export type MarkdownParent = Extract<MarkdownNode | MarkdownRoot, { children: unknown[] }>;
/** An mdast heading. */
export type MarkdownHeading = Extract<MarkdownNode, { type: "heading" }>;

/**
 * Inline constructs chunking does not need: emphasis, links, images, references, escapes,
 * autolinks, footnotes, strikethrough, task checks. Chunk text is sliced from the source
 * by node offsets, so these only cost time; turning them off makes a parse about a third
 * faster. Block structure (headings, lists, code, tables, HTML, frontmatter), code spans
 * and inline HTML are still parsed. Heading text that may use them is parsed again in full
 * (see `headingText`).
 */
const unneededConstructs = [
  "attention",
  "autolink",
  "characterEscape",
  "characterReference",
  "hardBreakEscape",
  "labelEnd",
  "labelStartImage",
  "labelStartLink",
  "emailAutolink",
  "protocolAutolink",
  "wwwAutolink",
  "gfmFootnoteCall",
  "gfmFootnoteDefinition",
  "gfmPotentialFootnoteCall",
  "strikethrough",
  "tasklistCheck",
];

const blockOptions: FromMarkdownOptions = {
  extensions: [gfm(), frontmatter(["yaml"]), { disable: { null: unneededConstructs } }],
  // Tree transforms (the GFM autolink-literal one rewrites text into links without positions) are left out.
  mdastExtensions: [...gfmFromMarkdown().filter((extension) => extension.transforms === undefined), frontmatterFromMarkdown(["yaml"])],
};

const fullOptions: FromMarkdownOptions = {
  extensions: [gfm()],
  mdastExtensions: [gfmFromMarkdown()],
};

/**
 * Parses a Markdown document (GFM and YAML frontmatter) into mdast with positions, for
 * chunking: block structure, code spans and inline HTML, but not emphasis or links.
 */
export function parseMarkdownBlocks(text: string): MarkdownRoot {
  return fromMarkdown(text, blockOptions);
}

/** Parses a Markdown fragment with every GFM construct, for text that is shown (headings). */
export function parseMarkdownFull(text: string): MarkdownRoot {
  return fromMarkdown(text, fullOptions);
}

/** The start and end offsets of a node in the source. Parsed nodes always have them. */
export function nodeRange(node: MarkdownNode | MarkdownRoot): [number, number] {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) throw new Error(`mdast node "${node.type}" has no position`);
  return [start, end];
}
