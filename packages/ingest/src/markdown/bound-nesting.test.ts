import { describe, expect, it } from "vitest";
import { boundNesting, maxIndentColumns, maxNestingDepth } from "./bound-nesting.js";
import { parseMarkdownBlocks } from "./parse-markdown-blocks.js";
import type { MarkdownNode, MarkdownRoot } from "./markdown-tree.js";

function nestedList(depth: number): string {
  return Array.from({ length: depth }, (_, level) => `${"  ".repeat(level)}- item ${level}\n`).join("");
}

function containerDepth(node: MarkdownNode | MarkdownRoot): number {
  if (node.children === undefined) return 0;
  const own = node.type === "list" || node.type === "blockquote" ? 1 : 0;
  let deepest = 0;
  for (const child of node.children) deepest = Math.max(deepest, containerDepth(child));
  return own + deepest;
}

describe("boundNesting", () => {
  it("returns an ordinary document unchanged (the same string), code blocks and shallow lists included", () => {
    const text = [
      "# Title",
      "",
      "> quoted",
      "> > twice",
      "",
      "- one",
      "  - two",
      "    1. three",
      "",
      "```yaml",
      `${" ".repeat(200)}deep: code stays as written`,
      "```",
      "",
    ].join("\n");
    expect(boundNesting(text)).toBe(text);
  });

  it("bounds a list nested 3,000 levels deep so the parser sees a bounded depth, every item's text kept", () => {
    const bounded = boundNesting(nestedList(3000));
    const tree = parseMarkdownBlocks(bounded);
    expect(containerDepth(tree)).toBeLessThanOrEqual(2 * maxNestingDepth + maxIndentColumns);
    for (const level of [0, 31, 32, 1000, 2999]) expect(bounded).toContain(`- item ${level}\n`);
  });

  it("drops block quote and list markers past the depth bound on one line, keeping the text after them", () => {
    const bounded = boundNesting(`${">".repeat(5000)} deep\n${"- ".repeat(500)}listed\n`);
    expect(bounded).toBe(`${">".repeat(maxNestingDepth)} deep\n${"- ".repeat(maxNestingDepth)}listed\n`);
  });
});
