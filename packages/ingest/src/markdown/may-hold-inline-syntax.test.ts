import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formerHeadingTrigger, fullHeadingText } from "../../test/full-heading-text.js";
import { datasetsDirectory, needsDatasets, skipWithoutDatasets } from "../../test/datasets.js";
import { documentBlocks, maxFullHeadingChars, maxFullHeadingDelimiters } from "./document-blocks.js";
import { mayHoldInlineSyntax } from "./may-hold-inline-syntax.js";
import { parseMarkdownBlocks } from "./parse-markdown-blocks.js";

describe("issue 36 item 6: mayHoldInlineSyntax", () => {
  it("says true where a full parse may read syntax: emphasis, links, images, escapes, references, strikethrough, tags", () => {
    for (const text of ["*a*", "a [b](c)", "\\*", "~a~", "<b>x</b>", "![a](b)", "&amp;", "&#35;", "_a_", "a_ b", "_a", "a_", "x `_`"]) {
      expect({ text, may: mayHoldInlineSyntax(text) }).toEqual({ text, may: true });
    }
  });

  it("says false for `_` inside a word, `{`, `!` not before `[`, `&` that is no reference", () => {
    for (const text of [
      "limit_req",
      "plugin__name a1_b2",
      "GET /v1/route/{route_id}",
      "Q&A",
      "SIGTERM!",
      "&amp no semicolon",
      "{#anchor}",
    ]) {
      expect({ text, may: mayHoldInlineSyntax(text) }).toEqual({ text, may: false });
    }
  });

  it("where it says false, the full parse gives the text as it is (random strings of the characters it lets through)", () => {
    const alphabet = ["a", "B", "1", "_", "__", "{", "}", "!", "&", ";", "#", " ", "(", ")", ".", "-", ":", '"', "'", "é", "|", "=", "+"];
    // A fixed linear congruential sequence: the same strings on every run.
    let seed = 36;
    const next = (bound: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % bound;
    };
    let checked = 0;
    for (let round = 0; round < 4_000; round += 1) {
      let text = "";
      for (let index = 0, length = 1 + next(12); index < length; index += 1) text += alphabet[next(alphabet.length)];
      if (mayHoldInlineSyntax(text)) continue;
      checked += 1;
      const markdown = `## x ${text} y`;
      expect({ markdown, text: fullHeadingText(markdown) }).toEqual({
        markdown,
        text: `x ${text} y`
          .replace(/\s*\{#[^}]*\}\s*$/, "")
          .replace(/\s+/g, " ")
          .trim(),
      });
    }
    expect(checked).toBeGreaterThan(1_000);
  });

  it.skipIf(skipWithoutDatasets)(
    needsDatasets(
      "every heading of the datasets that the former rule sent to the full parse has the text the full parse gives (APISIX, TiDB, Sourcegraph, ShardingSphere)",
    ),
    () => {
      let compared = 0;
      const walk = (folder: string): void => {
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          const path = join(folder, entry.name);
          if (entry.isDirectory()) walk(path);
          else if (/\.mdx?$/.test(entry.name)) compared += compareHeadings(readFileSync(path, "utf8").replace(/^\uFEFF/, ""), path);
        }
      };
      for (const root of ["apisix-docs/docs", "tidb-docs-cn", "sourcegraph-handbook", "shardingsphere-docs"])
        walk(join(datasetsDirectory, root));
      expect(compared).toBeGreaterThan(1_000);
    },
    600_000,
  );
});

/** Compares each top-level heading's text with the full parse's where the former rule asked for it; the number compared. */
function compareHeadings(source: string, path: string): number {
  const tree = parseMarkdownBlocks(source);
  const nodes = tree.children.filter((node) => node.type === "heading");
  const blocks = documentBlocks(source, tree).filter((block) => block.kind === "heading");
  expect(blocks.length).toBe(nodes.length);
  let compared = 0;
  blocks.forEach((block, index) => {
    const node = nodes[index];
    if (block.kind !== "heading" || node === undefined) return;
    const texts = (node.children ?? []).filter((child) => child.type === "text").map((child) => source.slice(child.start, child.end));
    if (!texts.some((text) => formerHeadingTrigger.test(text)) || !fits(block.markdown)) return;
    compared += 1;
    expect({ path, heading: block.markdown, text: block.text }).toEqual({
      path,
      heading: block.markdown,
      text: fullHeadingText(block.markdown),
    });
  });
  return compared;
}

function fits(markdown: string): boolean {
  return markdown.length <= maxFullHeadingChars && (markdown.match(/[*_~]/g)?.length ?? 0) <= maxFullHeadingDelimiters;
}
