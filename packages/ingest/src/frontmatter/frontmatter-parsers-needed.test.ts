import { describe, expect, it } from "vitest";
import { frontmatterParsersNeeded } from "./frontmatter-parsers-needed.js";
import { parseMarkdownDocument } from "../document/parse-markdown-document.js";
import { directParseChars, parseOnCallingThread } from "../parse-pool/parse-on-calling-thread.js";
import { resolveIngestOptions } from "../options/resolve-ingest-options.js";

const body = "\n# Guide\n\nThe guide explains the gateway.\n";

describe("frontmatterParsersNeeded", () => {
  it("issue 36 item 6: no frontmatter, JSON, and YAML the simple reader reads need no parser loaded", () => {
    expect(frontmatterParsersNeeded(body)).toBe(false);
    expect(frontmatterParsersNeeded(`{"title": "Guide"}\n${body}`)).toBe(false);
    expect(frontmatterParsersNeeded(`---\ntitle: Guide\nkeywords: ["a", "b"]\n---\n${body}`)).toBe(false);
    expect(frontmatterParsersNeeded(`\ufeff---\ntitle: Guide\n---\n${body}`)).toBe(false);
  });

  it("issue 36 item 6: TOML, and YAML past the simple reader (anchors, flow mappings, comments), need them", () => {
    expect(frontmatterParsersNeeded(`+++\ntitle = "Guide"\n+++\n${body}`)).toBe(true);
    expect(frontmatterParsersNeeded(`---\nbase: &b {title: Guide}\nother: *b\n---\n${body}`)).toBe(true);
    expect(frontmatterParsersNeeded(`---\ntitle: Guide # the title\n---\n${body}`)).toBe(true);
    expect(frontmatterParsersNeeded(`\ufeff+++\ntitle = "Guide"\n+++\n${body}`)).toBe(true);
  });

  it("issue 36 item 6: a large file whose frontmatter needs a parser still parses under the deadline, as directly", async () => {
    const filler = "Paragraph of the guide.\n\n".repeat(Math.ceil(directParseChars / 20));
    const options = resolveIngestOptions({});
    for (const frontmatter of ['+++\ntitle = "Guide"\nkeywords = ["a", "b"]\n+++\n', "---\ntitle: &t Guide\nkeywords: [a, b]\n---\n"]) {
      const text = `${frontmatter}${body}${filler}`;
      expect(text.length).toBeGreaterThan(directParseChars);
      const document = await parseOnCallingThread(text, { source: "guide.md", options, signal: undefined, workers: () => undefined });
      expect(document).toEqual(parseMarkdownDocument(text, { source: "guide.md", options }));
      expect(document).toMatchObject({ title: "Guide", keywords: ["a", "b"] });
    }
  });
});
