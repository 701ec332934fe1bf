import type { KnowledgeEntry } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { createL0Index } from "./create-l0-index.js";

// Forty pages of one product's docs: every page shares the category and the word "gateway".
const pages: KnowledgeEntry[] = Array.from({ length: 40 }, (_, position) => ({
  id: `page-${position}`,
  source: `page-${position}.md`,
  title: `Plugin ${position}`,
  keywords: ["gateway", `feature-${position}`],
  domain: "plugins",
}));

describe("only specific terms become hints", () => {
  it("R7: a term most entries hold (the shared category, a generic word) gives no hint, no domain and so no filter", () => {
    const index = createL0Index(pages);
    const hints = index.match("how do I configure the gateway plugins");
    expect(hints.keywords).toEqual([]);
    expect(hints.domains).toEqual([]);
    expect(hints.entries).toEqual([]);
  });

  it("R4: a specific term still matches beside a generic one, and only it is listed", () => {
    const index = createL0Index(pages);
    const hints = index.match("gateway feature-7 settings");
    expect(hints.keywords).toEqual(["feature-7"]);
    expect(hints.entries.map((entry) => entry.id)).toEqual(["page-7"]);
    expect(hints.domains).toEqual(["plugins"]);
  });

  it("R7: generic words never make a filter, but they can unmake one: the domains only they matched are otherDomains, not hints", () => {
    const mixed: KnowledgeEntry[] = pages.map((page, position) => ({ ...page, domain: position % 2 === 0 ? "plugins" : "tutorials" }));
    const index = createL0Index(mixed);
    const hints = index.match("gateway feature-8 settings");
    expect(hints.keywords).toEqual(["feature-8"]);
    expect(hints.entries.map((entry) => entry.id)).toEqual(["page-8"]);
    expect(hints.domains).toEqual(["plugins"]);
    expect(hints.otherDomains).toEqual(["tutorials"]);
    expect(index.match("feature-8 settings").domains).toEqual(["plugins"]);
    expect(index.match("feature-8 settings")).not.toHaveProperty("otherDomains");
  });

  it("R4: a term held by up to three entries is specific however small the index", () => {
    const small = pages.slice(0, 3);
    expect(createL0Index(small).match("gateway").entries).toHaveLength(3);
    expect(createL0Index(pages.slice(0, 4)).match("gateway").entries).toHaveLength(0);
  });

  it("R4: a title of function words only never matches; a one-word title that is specific does", () => {
    const index = createL0Index([
      { id: "and", source: "functions/and.md", title: "and" },
      { id: "with", source: "functions/with.md", title: "With" },
      { id: "cache", source: "cache.md", title: "Caching" },
    ]);
    expect(index.match("how do I set up caching with and without a proxy").titles).toEqual(["Caching"]);
  });

  it("maxTermShare 1 lets every term match, and a bad value is refused naming it", () => {
    expect(createL0Index(pages, { maxTermShare: 1 }).match("gateway").entries).toHaveLength(20);
    expect(() => createL0Index(pages, { maxTermShare: 2 })).toThrow(/maxTermShare/);
  });
});
