import { describe, expect, it } from "vitest";
import { maxFullHeadingChars, maxFullHeadingDelimiters } from "../markdown/document-blocks.js";
import { parseMarkdownDocument } from "./parse-markdown-document.js";

const parse = (text: string) => parseMarkdownDocument(text, { source: "guides/hostile.md" });

// Issue 33: a heading of nested emphasis went to the full inline parser whole, whose emphasis pass is
// quadratic in the delimiters: `# ` + 50,000 `*` + `a` + 50,000 `*` ran for minutes on the calling thread.
describe("parseMarkdownDocument on hostile headings", () => {
  it("a heading of 20,000 `*` around a word, and one of 10,000 alternating `*_`, parse at once and keep their text as written", () => {
    const stars = `${"*".repeat(20_000)}a${"*".repeat(20_000)}`;
    const starred = parse(`# ${stars}\n\nBody text.\n`);
    expect(starred.title).toBe(stars);
    expect(starred.chunks.map((chunk) => chunk.content).join("\n")).toContain("Body text.");
    const alternating = `${"*_".repeat(10_000)}a${"_*".repeat(10_000)}`;
    expect(parse(`## ${alternating}\n\nMore text.\n`).chunks[0]?.breadcrumb).toContain(alternating);
  });

  it("a real heading with emphasis is still read in full; one past the delimiter bound keeps its delimiters", () => {
    expect(parse("# Use **bold**, _italic_ and ~~struck~~ words\n\nText.\n").title).toBe("Use bold, italic and struck words");
    const many = Array.from({ length: maxFullHeadingDelimiters / 2 + 1 }, (_, index) => `*w${index}*`).join(" ");
    expect(parse(`# ${many}\n\nText.\n`).title).toBe(many);
    const long = `**${"word ".repeat(maxFullHeadingChars / 5).trim()}**`;
    expect(parse(`# ${long}\n\nText.\n`).title).toBe(long);
  });
});
