import type { Tree } from "@lezer/common";
import { parser as commonMark } from "@lezer/markdown";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readHtmlBlock } from "./read-html-block.js";
import { readInlineHtml } from "./read-inline-html.js";
import { readTable } from "./read-table.js";
import { skipPlainText } from "./skip-plain-text.js";

// The block parser of parse-markdown-blocks.ts, with and without the skip: it must change
// how fast the parse runs, never what it finds.
const removed = ["Escape", "Entity", "Emphasis", "HardBreak", "Link", "Image", "LinkEnd"];
const withSkip = commonMark.configure([
  readTable,
  { remove: removed, parseBlock: [readHtmlBlock], parseInline: [readInlineHtml, skipPlainText] },
]);
const everyCharacter = commonMark.configure([readTable, { remove: removed, parseBlock: [readHtmlBlock], parseInline: [readInlineHtml] }]);

/** Every node of a tree, in order, with its offsets. */
function nodesOf(tree: Tree): string[] {
  const nodes: string[] = [];
  tree.iterate({ enter: (node) => void nodes.push(`${node.name} ${node.from}-${node.to}`) });
  return nodes;
}

/** Pieces of Markdown heavy in what inline parsing looks at: backticks, `<`, escapes, tables. */
const piece = fc.oneof(
  fc.constantFrom("`", "``", "```", "<", ">", "\\", "\n", "\n\n", " ", "|", "# ", "- ", "> ", "    ", "<b>", "</i>", "<!--", "-->"),
  fc.constantFrom("<http://x.y>", "<a@b.c>", "<?p ?>", "<![CDATA[x]]>", "<!X y>", "`code`", "| a | b |\n| - | - |\n| `c` | <d> |\n"),
  fc.string({ unit: fc.constantFrom("a", " ", "`", "<", ">", "/", "!", "-", "\n", "|", "\\", "é", "中"), maxLength: 12 }),
);

describe("skipPlainText", () => {
  it("issue 36 item 6: the parse with plain text skipped finds the same nodes at the same offsets as one offered every character", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join("");
        expect(nodesOf(withSkip.parse(text))).toEqual(nodesOf(everyCharacter.parse(text)));
      }),
      { numRuns: 3000 },
    );
  });

  it("issue 36 item 6: code spans, inline HTML and table cells after long plain text are still found", () => {
    const text = `${"plain words ".repeat(50)}\`code\` and <span>html</span>\n\n| a | b |\n| - | - |\n| ${"x".repeat(80)} \`y\` | <i>z</i> |\n`;
    const nodes = nodesOf(withSkip.parse(text));
    expect(nodes).toEqual(nodesOf(everyCharacter.parse(text)));
    expect(nodes.filter((node) => node.startsWith("InlineCode"))).toHaveLength(2);
    expect(nodes.filter((node) => node.startsWith("HTMLTag"))).toHaveLength(4);
  });
});
