import { describe, expect, it } from "vitest";
import { documentToEntry } from "./document-to-entry.js";
import { parseMarkdownDocument } from "./parse-markdown-document.js";

describe("documentToEntry", () => {
  it("R4: gives one L0 entry per document: title, keywords, domain = category, entities, source", () => {
    const document = parseMarkdownDocument(
      "---\ntitle: Rate limits\nkeywords: [throttling]\ncategory: gateway\naliases: [limit-req]\n---\n\nText.\n",
      { source: "plugins/limit-req.md" },
    );
    expect(documentToEntry(document)).toEqual({
      id: "plugins/limit-req",
      source: "plugins/limit-req.md",
      title: "Rate limits",
      keywords: ["throttling"],
      domain: "gateway",
      entities: ["limit-req"],
    });
  });

  it("has no domain when the document has no category", () => {
    const entry = documentToEntry(parseMarkdownDocument("# Root page\n", { source: "index.md" }));
    expect(entry).toEqual({ id: "index", source: "index.md", title: "Root page", keywords: [], entities: [] });
    expect("domain" in entry).toBe(false);
  });
});
