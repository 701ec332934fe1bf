import { describe, expect, it } from "vitest";
import { formerHeadingTrigger, fullHeadingText } from "../../test/full-heading-text.js";
import { documentBlocks, maxFullHeadingChars, maxFullHeadingDelimiters } from "./document-blocks.js";
import { parseMarkdownBlocks } from "./parse-markdown-blocks.js";

/**
 * Inline forms a heading may hold: autolinks, tags, character references, escapes, code spans,
 * emphasis at word edges, strikethrough, GFM autolink literals (www., URLs, emails), footnote
 * references, images, links, reference links, anchors and shortcodes, CJK beside `_` and `*`, NUL.
 */
const forms = [
  "<http://a.b/c>",
  "<a@b.co>",
  "<span>x</span>",
  "<br/>",
  "<!-- c -->",
  "&amp;",
  "&#123;",
  "&#x1F;",
  "&#96;",
  "&frac12;",
  "&nbsp",
  "&;",
  "&#;",
  "\\*",
  "\\_",
  "\\#",
  "\\\\",
  "\\`",
  "`code`",
  "`` a`b ``",
  "`_x_`",
  "*em*",
  "**st**",
  "_em_",
  "__st__",
  "a_b",
  "a__b_c",
  "_",
  "__",
  "~~del~~",
  "~one~",
  "www.x.com",
  "http://x.com/a_b",
  "https://x.org.",
  "a@b.com",
  "a_b@c.com",
  "mailto:a@b.co",
  "[^1]",
  "![alt](i.png)",
  "![",
  "!",
  "[link](http://x)",
  "[ref][r]",
  "[r]",
  "[a]",
  "]",
  "{#anchor}",
  "{",
  "}",
  "{{< sc >}}",
  "{/* c */}",
  "#",
  "##",
  "中文",
  "_中文_",
  "中_文",
  "*中文*",
  "é_b",
  "Q&A",
  "foo",
  "1",
  ".",
  "(",
  ")",
  "'",
  '"',
  ":",
  "-",
  "\u00a0",
  "\t",
  "x_",
  "_x",
  "!important",
  "a!b",
  "&x",
  "&x;",
  "&abc1;",
  "a\u0000b",
  "\u0000",
];

describe("issue 36 item 6 review: heading text against the full parse over inline syntax forms", () => {
  it("a heading with NUL or a hard break that the former rule sent to the full parse keeps the full parse's text", () => {
    for (const source of [
      "## limit_req\u0000\n",
      "## Q&A \u0000\n",
      "## `a\u0000` x_y\n",
      "limit_req  \nnext\n---\n",
      "Q&A  \r\nnext\n===\n",
      "a  \n`c` d_e\n---\n",
    ]) {
      const tree = parseMarkdownBlocks(source);
      const block = documentBlocks(source, tree).find((candidate) => candidate.kind === "heading");
      expect(block?.kind).toBe("heading");
      if (block?.kind !== "heading") continue;
      expect({ source, text: block.text }).toEqual({ source, text: fullHeadingText(block.markdown) });
    }
  });

  it("every heading the former rule sent to the full parse has the full parse's text", () => {
    let seed = 3612;
    const next = (bound: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((seed / 2_147_483_648) * bound);
    };
    const failures: Array<{ markdown: string; text: string; full: string }> = [];
    let compared = 0;
    for (let round = 0; round < 4_000; round += 1) {
      // A setext heading may span lines, so its parts may be joined by a soft or a hard break.
      const setext = next(3) === 0;
      const separators = setext ? [" ", "", "\n", "  \n", " "] : [" ", "", " "];
      const parts: string[] = [];
      for (let index = 0, length = 1 + next(5); index < length; index += 1) {
        if (index > 0) parts.push(separators[next(separators.length)] ?? " ");
        parts.push(forms[next(forms.length)] ?? "");
      }
      const body = parts.join("").trim();
      if (body === "" || /^(?:[-=#]|\d)/.test(body)) continue;
      const source = setext ? `${body}\n---\n` : `## ${body}${next(5) === 0 ? " ##" : ""}\n`;
      const tree = parseMarkdownBlocks(source);
      const node = tree.children.find((child) => child.type === "heading");
      const block = documentBlocks(source, tree).find((candidate) => candidate.kind === "heading");
      if (node === undefined || block === undefined || block.kind !== "heading") continue;
      const texts = (node.children ?? []).filter((child) => child.type === "text").map((child) => source.slice(child.start, child.end));
      const fits =
        block.markdown.length <= maxFullHeadingChars && (block.markdown.match(/[*_~]/g)?.length ?? 0) <= maxFullHeadingDelimiters;
      if (!texts.some((text) => formerHeadingTrigger.test(text)) || !fits) continue;
      compared += 1;
      const full = fullHeadingText(block.markdown);
      if (block.text !== full) failures.push({ markdown: block.markdown, text: block.text, full });
    }
    expect(JSON.stringify(failures.slice(0, 10), null, 1)).toBe("[]");
    expect(compared).toBeGreaterThan(1_500);
  });
});
