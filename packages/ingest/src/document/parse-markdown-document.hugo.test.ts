import { describe, expect, it } from "vitest";
import { parseMarkdownDocument } from "./parse-markdown-document.js";

const contents = (text: string, source = "content/page.md"): string[] =>
  parseMarkdownDocument(text, { source }).chunks.map((chunk) => chunk.content);

describe("parseMarkdownDocument: Hugo shortcodes", () => {
  const page = [
    "---",
    "title: Configure the build",
    "---",
    "",
    '{{% include "/_common/gomodules-info.md" %}}',
    "",
    "## Options {{< new-in 0.120.0 >}}",
    "",
    '{{< figure src="/images/build.svg" alt="Build diagram" caption="How a build runs" >}}',
    "",
    "{{< tabs >}}",
    "",
    "Set `buildDrafts` to include drafts.",
    "",
    "{{< /tabs >}}",
    "",
    "- {{% note %}}Lists work too.{{% /note %}}",
    "",
    "Show a shortcode with `{{< figure >}}` or:",
    "",
    "```go-html-template",
    '{{< figure src="elephant.jpg" >}}',
    "{{</* escaped */>}}",
    "```",
    "",
    "    {{% indented code stays %}}",
    "",
  ].join("\n");

  it("drops the tags and their parameters, keeps the text between paired tags, leaves code blocks and code spans alone", () => {
    const [chunk, ...rest] = parseMarkdownDocument(page, { source: "content/build.md" }).chunks;
    expect(rest).toEqual([]);
    expect(chunk?.breadcrumb).toBe("Configure the build > Options");
    expect(chunk?.content).toBe(
      [
        "## Options",
        "",
        "Set `buildDrafts` to include drafts.",
        "",
        "- Lists work too.",
        "",
        "Show a shortcode with `{{< figure >}}` or:",
        "",
        "```go-html-template",
        '{{< figure src="elephant.jpg" >}}',
        "{{</* escaped */>}}",
        "```",
        "",
        "    {{% indented code stays %}}",
      ].join("\n"),
    );
    expect(chunk?.content).not.toMatch(/_common|gomodules|Build diagram|How a build runs|new-in/);
  });

  it("drops a shortcode spread over lines and keeps the prose after it", () => {
    const text = '# Images\n\n{{< figure\n  src="a.png"\n  alt="A tree"\n>}}\nThe picture shows the tree.\n';
    expect(contents(text)).toEqual(["# Images\n\nThe picture shows the tree."]);
  });

  it("keeps a page of unbalanced or malformed shortcodes readable", () => {
    const text = "# Notes\n\n{{% note %}}\nNever closed.\n\nA {{< broken one and {{< /tabs >}} the rest.\n";
    expect(contents(text)).toEqual(["# Notes\n\nNever closed.\n\nA {{< broken one and  the rest."]);
  });

  it("parses a document of 100k unclosed `{{<` without throwing or hanging", () => {
    const text = `# Adversarial\n\n${"{{<".repeat(100_000)}\n`;
    const chunks = contents(text);
    expect(chunks.join("").length).toBeGreaterThan(300_000);
  }, 10_000);
});

describe("parseMarkdownDocument: files with only front matter", () => {
  it("indexes the title and description of a section page without a body as its one chunk", () => {
    const text = "---\ntitle: Content management\ndescription: Organize, enrich and publish your content.\nweight: 10\n---\n";
    const document = parseMarkdownDocument(text, { source: "content-management/_index.md" });
    expect(document.chunks).toHaveLength(1);
    expect(document.chunks[0]).toMatchObject({
      docId: "content-management/_index",
      chunkIndex: 0,
      title: "Content management",
      breadcrumb: "Content management",
      description: "Organize, enrich and publish your content.",
      content: "Content management\n\nOrganize, enrich and publish your content.",
    });
  });

  it("indexes the front matter when the body is only noise (an include shortcode, a comment)", () => {
    expect(contents('---\ntitle: Installation\n---\n\n{{% include "/_common/install.md" %}}\n')).toEqual(["Installation"]);
    expect(contents("---\nsummary: Only a summary.\n---\n\n<!-- nothing else -->\n")).toEqual(["Only a summary."]);
  });

  it("splits a description longer than maxChunkChars within the bound", () => {
    const description = Array.from({ length: 40 }, (_, index) => `Sentence ${index} of a long description.`).join(" ");
    const document = parseMarkdownDocument(`---\ntitle: Long\ndescription: ${description}\n---\n`, {
      source: "long.md",
      options: { maxChunkChars: 400, overlapChars: 50 },
    });
    expect(document.chunks.length).toBeGreaterThan(1);
    for (const chunk of document.chunks) expect(chunk.content.length).toBeLessThanOrEqual(400);
    expect(document.chunks.map((chunk) => chunk.chunkIndex)).toEqual(document.chunks.map((_, index) => index));
  });

  it("gives no chunk to a file with neither body nor title or description", () => {
    expect(contents("---\nweight: 10\ndraft: true\n---\n")).toEqual([]);
    expect(contents("")).toEqual([]);
    expect(contents("---\nkeywords: [a, b]\n---\n\n<!-- only a comment -->\n")).toEqual([]);
  });

  it("does not add the front matter to a document that has a body", () => {
    expect(contents("---\ntitle: Home\ndescription: The start.\n---\n\nWelcome.\n")).toEqual(["Welcome."]);
  });
});
