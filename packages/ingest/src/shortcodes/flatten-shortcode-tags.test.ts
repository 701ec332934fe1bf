import { describe, expect, it } from "vitest";
import { flattenShortcodeTags } from "./flatten-shortcode-tags.js";
import { parseMarkdownBlocks } from "../markdown/parse-markdown-blocks.js";

const flatten = (text: string): string => flattenShortcodeTags(text, parseMarkdownBlocks(text));

describe("flattenShortcodeTags", () => {
  it("puts a tag over several lines on one line, character for character, so `>}}` and `- x` lines stay in the tag", () => {
    const text = '{{< figure\n  src="a.png"\n  - alt="A"\r\n>}}\nAfter.\n';
    const flat = flatten(text);
    expect(flat).toBe('{{< figure   src="a.png"   - alt="A"  >}}\nAfter.\n');
    expect(flat).toHaveLength(text.length);
    expect(parseMarkdownBlocks(flat).children.map((node) => node.type)).toEqual(["paragraph"]);
  });

  it("leaves code blocks, code spans, frontmatter and one-line tags alone", () => {
    const text = [
      "---",
      'description: "{{< a\n  >}}"',
      "---",
      "",
      "```",
      "{{< b",
      ">}}",
      "```",
      "",
      "Inline `{{< c",
      "  d >}}` code and {{< e >}} one line.",
      "",
    ].join("\n");
    expect(flatten(text)).toBe(text);
  });

  it("leaves a would-be tag holding a blank line (a stray `{{<` in prose), and returns the same string when nothing changed", () => {
    const text = "Type {{< to open\n\nand >}} to close.\n";
    expect(flatten(text)).toBe(text);
  });

  it("scans 100k unclosed openers over lines in linear time", () => {
    const text = "{{< x\n".repeat(100_000);
    expect(flattenShortcodeTags(text, { type: "root", start: 0, end: text.length, children: [] })).toBe(text);
  }, 2_000);
});
