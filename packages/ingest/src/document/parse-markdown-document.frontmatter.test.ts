import { describe, expect, it } from "vitest";
import { DocumentError } from "./document-error.js";
import { parseMarkdownDocument } from "./parse-markdown-document.js";

const lines = (...text: string[]): string => `${text.join("\n")}\n`;

const refused = (text: string, source = "docs/broken.md"): DocumentError => {
  try {
    parseMarkdownDocument(text, { source });
  } catch (error) {
    if (DocumentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("the document was accepted");
};

describe("parseMarkdownDocument: TOML frontmatter (Hugo, between +++ lines)", () => {
  it("reads title, description, category, keywords and entities like YAML; other keys (weight, chapter, pre) are ignored", () => {
    const text = lines(
      "+++",
      'title = "SQL Error Code"',
      "weight = 1",
      "chapter = true",
      'pre = "<b>3.1. </b>"',
      'description = "Codes returned to the client"',
      'category = "reference"',
      'keywords = ["SQL State", "vendor code"]',
      "aliases = ['/error-codes/']",
      "+++",
      "",
      "## Background",
      "",
      "SQL error codes are returned when a statement fails.",
    );
    const document = parseMarkdownDocument(text, { source: "en/user-manual/error-code/sql-error-code.md" });
    expect(document).toMatchObject({
      title: "SQL Error Code",
      description: "Codes returned to the client",
      category: "reference",
      keywords: ["SQL State", "vendor code"],
      entities: ["/error-codes/"],
    });
    expect(document.chunks.map((chunk) => [chunk.breadcrumb, chunk.content])).toEqual([
      ["SQL Error Code > Background", "## Background\n\nSQL error codes are returned when a statement fails."],
    ]);
  });

  it("starts the body after the block (a BOM, CRLF and spaces after the fence allowed), and a body-less _index.md is its title", () => {
    const crlf = '\uFEFF+++ \r\ntitle = "Overview"\r\nweight = 2\r\n+++\r\n\r\nWhat the project does.\r\n';
    const overview = parseMarkdownDocument(crlf, { source: "en/overview/_index.md" });
    expect(overview.title).toBe("Overview");
    expect(overview.chunks.map((chunk) => chunk.content)).toEqual(["What the project does."]);

    const section = parseMarkdownDocument(lines("+++", 'title = "Features"', "chapter = true", "+++"), { source: "en/features/_index.md" });
    expect(section.chunks.map((chunk) => [chunk.breadcrumb, chunk.content])).toEqual([["Features", "Features"]]);
  });

  it("refuses TOML that does not parse, naming the file, the reason and the line", () => {
    const error = refused(lines("+++", 'title = "Open', "weight = 1", "+++", "", "Text."));
    expect(error.code).toBe("invalid_document");
    expect(error.source).toBe("docs/broken.md");
    expect(error.message).toContain("docs/broken.md");
    expect(error.reason).toMatch(/^frontmatter is not valid TOML: .+ \(line 2, column \d+\)$/);
    expect(refused(lines("+++", 'title = "A"', 'title = "B"', "+++")).reason).toMatch(/^frontmatter is not valid TOML: .*\(line 3,/);
  });

  it("refuses a field of the wrong type, naming it, and a block that is never closed", () => {
    expect(refused(lines("+++", "title = 3", "+++", "Text.")).reason).toBe('frontmatter field "title" must be a string (got 3)');
    expect(refused(lines("+++", "keywords = { a = 1 }", "+++", "Text.")).reason).toMatch(/field "keywords" must be a string or a list/);
    expect(refused(lines("+++", 'title = "Open"', "", "Text.")).reason).toBe("frontmatter is not closed (no second +++ line)");
  });

  it("refuses TOML nested past the bound instead of running out of stack", () => {
    const deep = `+++\nx = ${"[".repeat(20_000)}${"]".repeat(20_000)}\n+++\nText.\n`;
    expect(refused(deep).reason).toMatch(/^frontmatter is not valid TOML: .*nested/);
  });
});

describe("parseMarkdownDocument: JSON frontmatter (Hugo, an object at the start)", () => {
  it("reads the same fields as YAML and starts the body after the object", () => {
    const text = lines(
      "{",
      '  "title": "Rate limits {and bursts}",',
      '  "summary": "How requests are delayed",',
      '  "keywords": "throttling, quota",',
      '  "tags": ["limit-req"],',
      '  "params": { "weight": 3 }',
      "}",
      "",
      "## Configure",
      "",
      "Set `rate` and `burst`.",
    );
    const document = parseMarkdownDocument(text, { source: "gateway/rate-limits.md" });
    expect(document).toMatchObject({
      title: "Rate limits {and bursts}",
      description: "How requests are delayed",
      category: "gateway",
      keywords: ["throttling", "quota"],
      entities: ["limit-req"],
    });
    expect(document.chunks.map((chunk) => [chunk.breadcrumb, chunk.content])).toEqual([
      ["Rate limits {and bursts} > Configure", "## Configure\n\nSet `rate` and `burst`."],
    ]);
  });

  it("refuses JSON that does not parse, naming the file, the reason and the line", () => {
    const error = refused(lines("{", '  "title": "A",', '  "weight": 1,', "}", "", "Text."));
    expect(error.source).toBe("docs/broken.md");
    expect(error.reason).toMatch(/^frontmatter is not valid JSON: .+\(line 4, column 1\)$/);
    expect(refused(lines('{ "title": ["a"] }', "Text.")).reason).toBe('frontmatter field "title" must be a string (got array(1))');
    expect(refused(lines("{", '  "title": "Open"', "", "Text.")).reason).toBe(
      "frontmatter is not closed (the JSON object has no closing })",
    );
  });

  it("stays linear on hostile JSON: deep nesting is read, an object that never closes is refused", () => {
    const deep = `{"title": "Deep", "x": ${"[".repeat(100_000)}${"]".repeat(100_000)}}\nText.\n`;
    expect(parseMarkdownDocument(deep, { source: "deep.md" }).title).toBe("Deep");
    const open = `{"title": "Open", "x": ${'{"a": '.repeat(200_000)}1\nText.\n`;
    expect(refused(open).reason).toMatch(/JSON object has no closing }/);
  });

  it("leaves a page that opens with a Hugo shortcode alone", () => {
    const document = parseMarkdownDocument('{{< figure src="a.png" caption="A diagram" >}}\n\n# Diagrams\n\nText.\n', {
      source: "diagrams.md",
    });
    expect(document.title).toBe("Diagrams");
    expect(document.chunks.map((chunk) => chunk.content)).toEqual(["# Diagrams\n\nText."]);
  });
});

describe("parseMarkdownDocument: titles without frontmatter", () => {
  it("never takes an H2 or deeper heading: a page opening with ## takes its file name, and the heading stays in the breadcrumb", () => {
    const text = lines("## Q: What's the name of this project?", "", "Lookup knowledge.", "", "### Why?", "", "Because.");
    const document = parseMarkdownDocument(text, { source: "faq/project-name.md" });
    expect(document.title).toBe("Project name");
    expect(document.chunks.map((chunk) => chunk.breadcrumb)).toEqual([
      "Project name > Q: What's the name of this project?",
      "Project name > Q: What's the name of this project? > Why?",
    ]);
  });

  it("does not take an H1 that comes after a deeper heading (a section, not a title)", () => {
    const text = lines("## Metric definitions", "", "Text.", "", "# How to", "", "More text.");
    expect(parseMarkdownDocument(text, { source: "data/documentation.md" }).title).toBe("Documentation");
  });

  it("takes an H1, ATX or setext, that opens the headings, after text or not", () => {
    expect(parseMarkdownDocument(lines("Intro.", "", "# Rate limits", "", "## Configure", "", "Text."), { source: "a.md" }).title).toBe(
      "Rate limits",
    );
    expect(parseMarkdownDocument(lines("Rate limits", "===", "", "Text."), { source: "a.md" }).title).toBe("Rate limits");
  });

  it("names an _index.md, index.md or README.md without a title after its folder", () => {
    const hugo = lines("+++", "weight = 1", "+++", "", "## Background", "", "Text.");
    expect(parseMarkdownDocument(hugo, { source: "en/features/db-gateway/_index.md" }).title).toBe("Db gateway");
    expect(parseMarkdownDocument("## Intro\n\nText.\n", { source: "handbook/ceo-team/index.md" }).title).toBe("Ceo team");
    expect(parseMarkdownDocument("Text.\n", { source: "guides/load-balance/README.md" }).title).toBe("Load balance");
  });
});
