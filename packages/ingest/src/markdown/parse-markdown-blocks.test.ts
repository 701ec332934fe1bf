import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import { datasetsDirectory, needsDatasets, skipWithoutDatasets } from "../../test/datasets.js";
import type { MarkdownNode } from "./markdown-tree.js";
import { parseMarkdownBlocks } from "./parse-markdown-blocks.js";

// The reference: micromark (through mdast-util-from-markdown) with GFM and frontmatter and
// the inline constructs chunking does not need turned off, which is what the block parse
// replaced. The two must agree on every block's kind and offsets, on phrasing's content
// range, and on where code spans and inline HTML are. (Table cells are compared by content:
// micromark's cell nodes take in the pipe before them.)
const reference = {
  extensions: [
    gfm(),
    frontmatter(["yaml", "toml"]),
    {
      disable: {
        null: [
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
        ],
      },
    },
  ],
  mdastExtensions: [
    ...gfmFromMarkdown().filter((extension) => extension.transforms === undefined),
    frontmatterFromMarkdown(["yaml", "toml"]),
  ],
};

interface Shape {
  type: string;
  start?: number;
  end?: number;
  depth?: number;
  value?: string;
  /** Phrasing: its content range and its code spans and inline HTML. */
  content?: [number, number] | [];
  inline?: string[];
  children?: Shape[];
}

interface MdastNode {
  type: string;
  position?: { start: { offset?: number }; end: { offset?: number } };
  children?: MdastNode[];
  depth?: number;
  value?: string;
}

const phrasing = new Set(["paragraph", "heading", "tableCell"]);
const startOf = (node: MdastNode): number => node.position?.start.offset ?? -1;
const endOf = (node: MdastNode): number => node.position?.end.offset ?? -1;

function referenceShape(node: MdastNode): Shape {
  const shape: Shape = { type: node.type, start: startOf(node), end: endOf(node) };
  if (node.type === "heading") shape.depth = node.depth ?? 0;
  if (node.type === "yaml" || node.type === "toml") shape.value = node.value ?? "";
  const children = node.children ?? [];
  if (phrasing.has(node.type)) {
    const first = children[0];
    const last = children[children.length - 1];
    shape.content = first === undefined || last === undefined ? [] : [startOf(first), endOf(last)];
    shape.inline = [];
    const collect = (nodes: MdastNode[]): void => {
      for (const child of nodes) {
        if (child.type === "inlineCode" || child.type === "html") shape.inline?.push(`${child.type} ${startOf(child)}-${endOf(child)}`);
        else collect(child.children ?? []);
      }
    };
    collect(children);
  } else if (children.length > 0) {
    shape.children = children.map(referenceShape);
  }
  return comparable(shape);
}

function ourShape(node: MarkdownNode): Shape {
  const shape: Shape = { type: node.type, start: node.start, end: node.end };
  if (node.type === "heading") shape.depth = node.depth ?? 0;
  if (node.type === "yaml" || node.type === "toml") shape.value = node.value ?? "";
  const children = node.children ?? [];
  if (phrasing.has(node.type)) {
    const first = children[0];
    const last = children[children.length - 1];
    shape.content = first === undefined || last === undefined ? [] : [first.start, last.end];
    shape.inline = children.filter((child) => child.type !== "text").map((child) => `${child.type} ${child.start}-${child.end}`);
  } else if (children.length > 0) {
    shape.children = children.map(ourShape);
  }
  return comparable(shape);
}

/** Table cells without their own offsets, empty ones left out. */
function comparable(shape: Shape): Shape {
  if (shape.type !== "tableRow" || shape.children === undefined) return shape;
  const cells = shape.children.filter((cell) => cell.content?.length !== 0).map(({ start: _s, end: _e, ...cell }) => cell);
  return { ...shape, children: cells };
}

function expectSameShape(text: string, label: string): void {
  const expected = (fromMarkdown(text, reference).children as MdastNode[]).map(referenceShape);
  const actual = parseMarkdownBlocks(text).children.map(ourShape);
  expect(actual, label).toEqual(expected);
}

const cases: Array<[string, string]> = [
  ["headings, ATX and setext, indented, with closing marks", "# One\n  ## Two ##\nThree\n=====\n  Four  \n  ---\n#\n"],
  ["paragraphs ending in spaces and CRLF line endings", "one  \ntwo\r\n\r\nthree \r\nfour\r\n"],
  ["indented code, also after tabs and in list items", "    code\n\n  \tcode after a tab\n\n- item\n\n      code in the item\n"],
  ["fenced code, indented and in containers", "  ```js\n  x\n  ```\n\n> ~~~\n> y\n> ~~~\n\n1. a\n\n    ```\n    z\n    ```\n"],
  ["nested lists with indented markers", "- a\n  + b\n\n    + c\n 1. d\n\n 2. e\n"],
  ["a list in a quote followed by a quoted blank line", "> - a\n> - b\n> \n> after\n"],
  [
    "HTML blocks of the seven kinds",
    "<script>\nx\n\ny</script>\n\n<!-- a\nb -->\n\n<?php ?>\n\n<!DOCTYPE html>\n\n<![CDATA[\nx\n]]>\n\n  <div>\nz\n\n<br />\ntext\n\n<Tabs>\n",
  ],
  ["HTML that cannot interrupt a paragraph, and HTML that can", "text\n<br />\nmore\n\ntext\n<div>\n"],
  ["inline HTML and code spans", "a <span class=\"x\">b</span> `c` <!-- d --> ``e ` f`` <a\nhref='g'> `h\ni` <x_y> <1>\n"],
  [
    "comments, processing instructions, declarations and CDATA inline, closed, overlapping and not",
    "a <!--> b <!---> c <!-- d --> e <? f ?> <!X g> <![CDATA[ h ]]> i <!-- never <? nor <![CDATA[ nor <!Y\n",
  ],
  ["tables: header, alignment, escaped pipes, code spans with pipes", "| a | b |\n|:--|--:|\n| `x|y` | c \\| d |\n| e |\n"],
  [
    "a table interrupting a paragraph, then the lines that end it",
    "Text:\n| a | b |\n|---|---|\n| 1 | 2 |\n    indented\n\n| a |\n|---|\n-\n\n| a |\n|---|\n---\n",
  ],
  ["a line of non-breaking spaces and a dash is no delimiter row", "p\na|b\n\u00a0-|-\n"],
  ["a table in a quote ends before a lazy line", "> | a |\n> |---|\n> | 1 |\nlazy\n"],
  ["a second header and delimiter are rows of the table", "| a | b |\n|---|---|\n| c | d |\n|---|---|\n"],
  [
    "a line of = after a table is a row of it, not a setext underline",
    "| a | b |\n| - | - |\n| 1 | 2 |\n===\n| 3 | 4 |\n\npara\n\n| a |\n| - |\n=\n",
  ],
  ["link reference definitions and thematic breaks", '[a]: https://example.com "t"\n  [b]:\n  /u\n\n***\n- - -\n'],
  ["frontmatter, closed", "---\ntitle: x\nlist:\n  - a\n---\n# After\n"],
  ["frontmatter with CRLF and spaces after the fences", "---  \r\ntitle: x\r\n---\t\r\n\r\nbody\r\n"],
  ["frontmatter that is never closed is a rule and text", "---\ntitle: x\n\nbody\n"],
  ["empty frontmatter", "---\n---\nbody\n"],
  ["TOML frontmatter (Hugo)", '+++\ntitle = "x"\nweight = 1\nchapter = true\n+++\n\n## Background\n\nbody\n'],
  ["TOML frontmatter with CRLF and spaces after the fences", '+++ \r\ntitle = "x"\r\n+++\t\r\n\r\nbody\r\n'],
  ["a TOML fence closes only a TOML block", '+++\ntitle = "x"\n---\nbody\n'],
];

describe("issue 14: parseMarkdownBlocks gives micromark's block structure and offsets", () => {
  it.each(cases)("issue 14: %s", (label, text) => expectSameShape(text, label));

  it("issue 14: a paragraph full of inline HTML that never closes is read in linear time", () => {
    // Each opener once searched the rest of the paragraph for its end: 100,000 of them took minutes.
    const spaces = parseMarkdownBlocks(`a\nx|y\n${"\u00a0".repeat(200_000)}-\n`);
    expect(spaces.children.map((node) => node.type)).toEqual(["paragraph"]);
    for (const opener of ["<!--", "<?", "<!X", "<![CDATA["]) {
      const tree = parseMarkdownBlocks(`x ${`${opener} a `.repeat(100_000)}`);
      expect(tree.children.map((node) => node.type)).toEqual(["paragraph"]);
    }
  }, 20_000);

  it.skipIf(skipWithoutDatasets)(
    needsDatasets("issue 14: every file of the APISIX docs (en, zh) and the TiDB docs (Hugo shortcodes, CRLF) parses the same"),
    () => {
      const roots = ["apisix-docs/docs", "tidb-docs-cn"].map((root) => join(datasetsDirectory, root));
      let files = 0;
      const walk = (folder: string): void => {
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          const path = join(folder, entry.name);
          if (entry.isDirectory()) walk(path);
          else if (/\.mdx?$/.test(entry.name)) {
            files += 1;
            expectSameShape(readFileSync(path, "utf8").replace(/^\uFEFF/, ""), path);
          }
        }
      };
      for (const root of roots) walk(root);
      expect(files).toBeGreaterThan(1000);
    },
    300_000,
  );
});
