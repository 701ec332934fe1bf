import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { globSync } from "tinyglobby";
import { describe, expect, it } from "vitest";
import { datasetsDirectory, needsDatasets, skipWithoutDatasets } from "../../test/datasets.js";
import { DocumentError } from "./document-error.js";
import { parseMarkdownDocument } from "./parse-markdown-document.js";

const apisixEnglish = join(datasetsDirectory, "apisix-docs/docs/en/latest");
const tidb = join(datasetsDirectory, "tidb-docs-cn");
const readDataset = (root: string, source: string): string => readFileSync(join(root, source), "utf8");

const atomicTypes = new Set(["code", "table"]);

/** Every node of the given types, at any depth, as [type, source slice], parsed with the full GFM parser. */
function nodesOf(text: string, types: ReadonlySet<string>): Array<[string, string]> {
  const tree = fromMarkdown(text, {
    extensions: [gfm(), frontmatter(["yaml"])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(["yaml"])],
  });
  const found: Array<[string, string]> = [];
  const visit = (node: {
    type: string;
    position?: { start: { offset?: number | undefined }; end: { offset?: number | undefined } } | undefined;
    children?: unknown[] | undefined;
  }): void => {
    if (types.has(node.type)) found.push([node.type, text.slice(node.position?.start.offset, node.position?.end.offset)]);
    for (const child of node.children ?? []) visit(child as typeof node);
  };
  visit(tree);
  return found;
}

const sentence = (topic: string, index: number): string =>
  `The ${topic} paragraph number ${index} explains one more detail about how the gateway handles requests.`;
const prose = (topic: string, sentences: number): string =>
  Array.from({ length: sentences }, (_, index) => sentence(topic, index)).join(" ");

describe("parseMarkdownDocument: identity and metadata", () => {
  it("takes the title from frontmatter, else from the H1 that opens the headings, else from the file name", () => {
    const fromFrontmatter = parseMarkdownDocument("---\ntitle: Rate limits\n---\n\n# Something else\n\nText.\n", { source: "a.md" });
    expect(fromFrontmatter.title).toBe("Rate limits");
    const fromHeading = parseMarkdownDocument("Intro text.\n\n# The `limit-req` **plugin**\n\nText.\n", { source: "b.md" });
    expect(fromHeading.title).toBe("The limit-req plugin");
    const fromName = parseMarkdownDocument("Only text.\n", { source: "guides/no-heading.mdx" });
    expect(fromName.title).toBe("No heading");
  });

  it("derives docId and source from the path and keeps them stable across runs", () => {
    const text = `---\ntitle: Limits\n---\n\n## One\n\n${prose("first", 30)}\n\n## Two\n\n${prose("second", 30)}\n`;
    const first = parseMarkdownDocument(text, { source: "plugins/limit-req.md" });
    const second = parseMarkdownDocument(text, { source: "plugins/limit-req.md" });
    expect(first.docId).toBe("plugins/limit-req");
    expect(first.source).toBe("plugins/limit-req.md");
    expect(first.chunks.map((chunk) => chunk.chunkIndex)).toEqual(first.chunks.map((_, index) => index));
    expect(second).toEqual(first);
    for (const chunk of first.chunks) {
      expect(chunk).toMatchObject({ docId: "plugins/limit-req", source: "plugins/limit-req.md", title: "Limits" });
    }
  });

  it("hashes the whole text and each chunk's content (sha256, hex)", () => {
    const document = parseMarkdownDocument("# A\n\nText.\n", { source: "a.md" });
    expect(document.contentHash).toMatch(/^[0-9a-f]{64}$/);
    const changed = parseMarkdownDocument("# A\n\nText!\n", { source: "a.md" });
    expect(changed.contentHash).not.toBe(document.contentHash);
    expect(document.chunks[0]?.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(changed.chunks[0]?.contentHash).not.toBe(document.chunks[0]?.contentHash);
  });

  it("takes the category from the configured field, else from the first folder; root files have none", () => {
    expect(parseMarkdownDocument("---\ncategory: billing\n---\nText.\n", { source: "plugins/a.md" }).category).toBe("billing");
    expect(
      parseMarkdownDocument("---\nsection: ops\n---\nText.\n", { source: "plugins/a.md", options: { categoryField: "section" } }).category,
    ).toBe("ops");
    expect(parseMarkdownDocument("Text.\n", { source: "plugins/a.md" }).category).toBe("plugins");
    expect(parseMarkdownDocument("Text.\n", { source: "a.md" }).category).toBeUndefined();
    const chunk = parseMarkdownDocument("Text.\n", { source: "plugins/a.md" }).chunks[0];
    expect(chunk?.category).toBe("plugins");
  });

  it("reads keywords and entities from the configured fields, as strings or lists", () => {
    const text = [
      "---",
      "keywords: [APISIX, API Gateway, APISIX]",
      "tags: rate limit, throttling",
      "aliases:",
      "  - /docs/limit-req/",
      "entities: Kong",
      "products: [Gateway, 2024]",
      "---",
      "Text.",
    ].join("\n");
    const defaults = parseMarkdownDocument(text, { source: "a.md" });
    expect(defaults.keywords).toEqual(["APISIX", "API Gateway"]);
    expect(defaults.entities).toEqual(["Kong", "/docs/limit-req/", "rate limit", "throttling"]);
    expect(defaults.chunks[0]?.keywords).toEqual(["APISIX", "API Gateway"]);
    const configured = parseMarkdownDocument(text, { source: "a.md", options: { keywordFields: ["tags"], entityFields: ["products"] } });
    expect(configured.keywords).toEqual(["rate limit", "throttling"]);
    expect(configured.entities).toEqual(["Gateway", "2024"]);
  });

  it("takes the description from `description`, else `summary`", () => {
    expect(parseMarkdownDocument("---\ndescription: Short.\nsummary: Long.\n---\nText.\n", { source: "a.md" }).description).toBe("Short.");
    const document = parseMarkdownDocument("---\nsummary: 概述。\n---\nText.\n", { source: "a.md" });
    expect(document.description).toBe("概述。");
    expect(document.chunks[0]?.description).toBe("概述。");
    expect(parseMarkdownDocument("Text.\n", { source: "a.md" }).description).toBeUndefined();
  });
});

describe("parseMarkdownDocument: broken frontmatter", () => {
  const refused = (text: string): DocumentError => {
    try {
      parseMarkdownDocument(text, { source: "docs/broken.md" });
    } catch (error) {
      if (DocumentError.isInstance(error)) return error;
      throw error;
    }
    throw new Error("the document was accepted");
  };

  it("refuses YAML that does not parse, naming the file and the reason", () => {
    const error = refused("---\ntitle: [unclosed\nkeywords: a\n---\nText.\n");
    expect(error.code).toBe("invalid_document");
    expect(error.source).toBe("docs/broken.md");
    expect(error.reason).toMatch(/^frontmatter is not valid YAML/);
    expect(error.message).toContain("docs/broken.md");
  });

  it("refuses frontmatter that is not a mapping", () => {
    expect(refused("---\n- one\n- two\n---\nText.\n").reason).toBe("frontmatter is not a mapping (got a list)");
    expect(refused("---\njust a string\n---\nText.\n").reason).toMatch(/^frontmatter is not a mapping/);
  });

  it("refuses a title that is not a string and keywords of the wrong shape", () => {
    expect(refused("---\ntitle: [a, b]\n---\nText.\n").reason).toBe('frontmatter field "title" must be a string (got array(2))');
    expect(refused("---\nkeywords: {a: 1}\n---\nText.\n").reason).toMatch(/field "keywords" must be a string or a list/);
  });

  it("refuses frontmatter that is never closed", () => {
    expect(refused("---\ntitle: Open\n\nText.\n").reason).toMatch(/not closed/);
  });

  it("accepts empty frontmatter, a BOM and a document without frontmatter", () => {
    expect(parseMarkdownDocument("---\n---\n# T\n\nText.\n", { source: "a.md" }).title).toBe("T");
    expect(parseMarkdownDocument("\uFEFF---\ntitle: Bom\n---\nText.\n", { source: "a.md" }).title).toBe("Bom");
    expect(parseMarkdownDocument("# T\n\n---\n\nText.\n", { source: "a.md" }).chunks).toHaveLength(1);
  });
});

describe("parseMarkdownDocument: chunking", () => {
  it("chunks by heading with `Title > H2 > H3` breadcrumbs", () => {
    const text = [
      "---",
      "title: Gateway guide",
      "---",
      "Intro.",
      "## Install",
      "Install text.",
      "### On Linux",
      "Linux text.",
      "### On macOS",
      "Mac text.",
      "## Configure",
      "Configure text.",
    ].join("\n\n");
    const document = parseMarkdownDocument(text, { source: "guide.md" });
    expect(document.chunks.map((chunk) => [chunk.breadcrumb, chunk.content])).toEqual([
      ["Gateway guide", "Intro."],
      ["Gateway guide > Install", "## Install\n\nInstall text."],
      ["Gateway guide > Install > On Linux", "### On Linux\n\nLinux text."],
      ["Gateway guide > Install > On macOS", "### On macOS\n\nMac text."],
      ["Gateway guide > Configure", "## Configure\n\nConfigure text."],
    ]);
  });

  it("does not repeat an H1 equal to the title, and brings an empty parent heading into its child's chunk", () => {
    const text = "# Guide\n\n## Examples\n\n### First example\n\nExample text.\n";
    const document = parseMarkdownDocument(text, { source: "guide.md" });
    expect(document.chunks.map((chunk) => [chunk.breadcrumb, chunk.content])).toEqual([
      ["Guide > Examples > First example", "# Guide\n\n## Examples\n\n### First example\n\nExample text."],
    ]);
  });

  it("treats an H1 that differs from the title only by code marks as the title", () => {
    const text = "---\ntitle: The `ADD INDEX` test\n---\n\n# The ADD INDEX test\n\n## Goal\n\nText.\n";
    const document = parseMarkdownDocument(text, { source: "a.md" });
    expect(document.chunks.map((chunk) => chunk.breadcrumb)).toEqual(["The `ADD INDEX` test > Goal"]);
  });

  it("respects the size bound, with overlap from the previous chunk of the same section only", () => {
    const text = `# Doc\n\n## Long\n\n${prose("long", 40)}\n\n${prose("second", 40)}\n\n## Next\n\n${prose("next", 3)}\n`;
    const options = { maxChunkChars: 600, overlapChars: 120 };
    const document = parseMarkdownDocument(text, { source: "doc.md", options });
    const long = document.chunks.filter((chunk) => chunk.breadcrumb === "Doc > Long");
    expect(long.length).toBeGreaterThan(5);
    for (const chunk of document.chunks) expect(chunk.content.length).toBeLessThanOrEqual(600);
    for (let index = 1; index < long.length; index += 1) {
      const previous = long[index - 1]?.content ?? "";
      const current = long[index]?.content ?? "";
      // The chunk starts with a tail of the previous one (its last sentence, at most 120 characters).
      const overlap = current.split(/(?<=\.)\s/)[0] ?? "";
      expect(overlap).toMatch(/^The .*\.$/);
      expect(overlap.length).toBeLessThanOrEqual(120);
      expect(previous.endsWith(overlap)).toBe(true);
    }
    const next = document.chunks.find((chunk) => chunk.breadcrumb === "Doc > Next");
    expect(next?.content.startsWith("## Next")).toBe(true);
  });

  it("never splits a code block or a table; an oversized one stays whole in one chunk", () => {
    const bigCode = `\`\`\`js\n${Array.from({ length: 120 }, (_, index) => `console.log(${index});`).join("\n")}\n\`\`\``;
    const table = `| a | b |\n| - | - |\n${Array.from({ length: 40 }, (_, index) => `| row ${index} | value ${index} |`).join("\n")}`;
    const text = `# Doc\n\n## Code\n\n${prose("before", 6)}\n\n${bigCode}\n\n${prose("after", 6)}\n\n## Table\n\n${prose("table", 4)}\n\n${table}\n`;
    const document = parseMarkdownDocument(text, { source: "doc.md", options: { maxChunkChars: 500, overlapChars: 100 } });
    expect(document.chunks.filter((chunk) => chunk.content.includes(bigCode))).toHaveLength(1);
    expect(document.chunks.filter((chunk) => chunk.content.includes(table))).toHaveLength(1);
    for (const chunk of document.chunks) {
      if (chunk.content.length > 500) expect(chunk.content.includes(bigCode) || chunk.content.includes(table)).toBe(true);
    }
    // No overlap repeats code: the chunk after the code block starts with the prose after it.
    const afterCode = document.chunks.find((chunk) => chunk.content.includes("The after paragraph number 0"));
    expect(afterCode?.content).not.toContain("console.log");
  });

  it("splits a long list between items and keeps an item's code block whole", () => {
    const code = "```sh\napisix start\n```";
    const items = Array.from({ length: 30 }, (_, index) => `- Step ${index}: ${sentence("list", index)}`);
    items[10] = `- Step 10 runs:\n\n  ${code.replaceAll("\n", "\n  ")}`;
    const text = `# Doc\n\n${items.join("\n")}\n`;
    const document = parseMarkdownDocument(text, { source: "doc.md", options: { maxChunkChars: 600, overlapChars: 100 } });
    expect(document.chunks.length).toBeGreaterThan(3);
    for (const chunk of document.chunks) expect(chunk.content.length).toBeLessThanOrEqual(600);
    expect(document.chunks.filter((chunk) => chunk.content.includes(code.replaceAll("\n", "\n  ")))).toHaveLength(1);
    expect(document.chunks[0]?.content.startsWith("# Doc\n\n- Step 0:")).toBe(true);
  });

  it.skipIf(skipWithoutDatasets)(
    needsDatasets("property: every fenced code block of real documents appears whole in a chunk, in exactly one when unique"),
    () => {
      // Every second English apisix file (about a hundred, with well over a thousand code blocks).
      const sources = globSync(["**/*.md"], { cwd: apisixEnglish })
        .sort()
        .filter((_, index) => index % 2 === 0);
      expect(sources.length).toBeGreaterThan(90);
      let codeBlocks = 0;
      for (const source of sources) {
        const text = readDataset(apisixEnglish, source);
        const chunks = parseMarkdownDocument(text, { source }).chunks;
        for (const [type, slice] of nodesOf(text, atomicTypes)) {
          if (type === "code") {
            codeBlocks += 1;
            const holders = chunks.filter((chunk) => chunk.content.includes(slice)).length;
            expect(holders, `${source}: ${slice.slice(0, 60)}`).toBeGreaterThanOrEqual(1);
            if (text.split(slice).length === 2 && slice.length > 40) expect(holders, `${source}: ${slice.slice(0, 60)}`).toBe(1);
          } else if (!slice.includes("<") && !slice.includes(":::")) {
            // (cells with inline HTML or admonition markers are cleaned, so only clean tables are compared)
            expect(
              chunks.some((chunk) => chunk.content.includes(slice)),
              `${source}: table`,
            ).toBe(true);
          }
        }
        for (const chunk of chunks) {
          if (chunk.content.length <= 1500) continue;
          const atomic = nodesOf(chunk.content, atomicTypes).map(([, slice]) => slice.length);
          expect(Math.max(0, ...atomic), `${source} #${chunk.chunkIndex}`).toBeGreaterThan(1500 - 200);
        }
      }
      expect(codeBlocks).toBeGreaterThan(1000);
    },
  );

  it("works on CJK documents with Chinese headings", () => {
    const paragraph = "限流插件使用漏桶算法限制请求速率。".repeat(40);
    const text = `---\ntitle: 限流\n---\n\n## 配置\n\n${paragraph}\n\n### 示例\n\n示例文本。\n`;
    const document = parseMarkdownDocument(text, { source: "插件/限流.md", options: { maxChunkChars: 300, overlapChars: 60 } });
    expect(document.docId).toBe("插件/限流");
    expect(document.category).toBe("插件");
    const configure = document.chunks.filter((chunk) => chunk.breadcrumb === "限流 > 配置");
    expect(configure.length).toBeGreaterThan(1);
    for (const chunk of document.chunks) expect(chunk.content.length).toBeLessThanOrEqual(300);
    // The overlap starts right after a Chinese full stop.
    expect(configure[1]?.content.startsWith("限流插件")).toBe(true);
    expect(document.chunks.at(-1)).toMatchObject({ breadcrumb: "限流 > 配置 > 示例", content: "### 示例\n\n示例文本。" });
  });

  it("splits CJK prose without punctuation at the budget", () => {
    const text = `# 标题\n\n${"数据库".repeat(400)}\n`;
    const document = parseMarkdownDocument(text, { source: "a.md", options: { maxChunkChars: 300, overlapChars: 30 } });
    for (const chunk of document.chunks) expect(chunk.content.length).toBeLessThanOrEqual(300);
    expect(document.chunks.length).toBeGreaterThan(4);
  });
});

describe("parseMarkdownDocument: cleaning", () => {
  it("drops HTML comments, <head>, MDX imports and JSX wrappers, keeping the text inside", () => {
    const text = [
      "---",
      "title: Tabs",
      "---",
      "<!--\n# Licensed to someone\n-->",
      '<head>\n  <link rel="canonical" href="https://example.org/x" />\n</head>',
      "import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';",
      "## Install",
      "<Tabs\n  groupId=\"os\"\n  values={[\n    {label: 'Linux', value: 'linux'},\n  ]}>\n<TabItem value=\"linux\">",
      "Run the installer on Linux.",
      "```sh\n<Tabs> stays in code\n```",
      "</TabItem>\n</Tabs>",
      ":::tip\n\nUse `<TabItem>` in docs.\n\n:::",
      'A <span class="mark">marked</span> word and a <your-key> placeholder.<br/>',
    ].join("\n\n");
    const document = parseMarkdownDocument(text, { source: "x.mdx" });
    const content = document.chunks.map((chunk) => chunk.content).join("\n\n");
    expect(content).toBe(
      "## Install\n\nRun the installer on Linux.\n\n```sh\n<Tabs> stays in code\n```\n\nUse `<TabItem>` in docs.\n\nA marked word and a <your-key> placeholder.",
    );
  });

  it.skipIf(skipWithoutDatasets)(
    needsDatasets("cleans real apisix files: licence comment, <head>, imports and <Tabs> gone, inner text kept"),
    () => {
      const candidates = globSync(["**/*.md"], { cwd: apisixEnglish })
        .sort()
        .filter((source) => {
          const text = readDataset(apisixEnglish, source);
          return text.includes("<!--") && text.includes("<head>") && text.includes("import Tabs") && text.includes("<TabItem");
        });
      expect(candidates.length).toBeGreaterThan(5);
      for (const source of candidates) {
        const text = readDataset(apisixEnglish, source);
        const { chunks } = parseMarkdownDocument(text, { source });
        const outsideCode = chunks.map((chunk) => chunk.content.replace(/```[\s\S]*?```/g, "")).join("\n");
        expect(outsideCode, source).not.toContain("Licensed to the Apache Software Foundation");
        expect(outsideCode, source).not.toMatch(/<\/?head>|<link rel=/);
        expect(outsideCode, source).not.toMatch(/^import .* from '@theme/m);
        expect(outsideCode, source).not.toMatch(/<\/?Tabs|<\/?TabItem/);
        // The text inside the tabs stays: every fenced code block is still there.
        for (const [type, code] of nodesOf(text, atomicTypes)) {
          if (type === "code") expect(chunks.some((chunk) => chunk.content.includes(code))).toBe(true);
        }
      }
    },
  );

  it.skipIf(skipWithoutDatasets)(needsDatasets("cleans a real file exactly where the noise was (plugins/limit-req.md)"), () => {
    const text = readDataset(apisixEnglish, "plugins/limit-req.md");
    const document = parseMarkdownDocument(text, { source: "plugins/limit-req.md" });
    expect(document).toMatchObject({
      docId: "plugins/limit-req",
      title: "Rate Limiting (limit-req)",
      category: "plugins",
      keywords: ["Apache APISIX", "API Gateway", "Limit Request", "limit-req"],
    });
    expect(document.description).toMatch(/^The limit-req Plugin uses the leaky bucket algorithm/);
    expect(document.chunks[0]?.content).toMatch(/^## Description\n\nThe `limit-req` Plugin uses the \[leaky bucket\]/);
    expect(document.chunks[0]?.breadcrumb).toBe("Rate Limiting (limit-req) > Description");
    const breadcrumbs = new Set(document.chunks.map((chunk) => chunk.breadcrumb));
    expect(breadcrumbs).toContain("Rate Limiting (limit-req) > Attributes");
    expect(breadcrumbs).toContain("Rate Limiting (limit-req) > Examples > Apply Rate Limiting by Remote Address");
    expect(breadcrumbs).toContain("Rate Limiting (limit-req) > Examples > Implement API Throttling");
    // The text between <TabItem> tags is kept.
    expect(document.chunks.some((chunk) => chunk.content.includes("Synchronize the configuration to the gateway:"))).toBe(true);
  });

  it.skipIf(skipWithoutDatasets)(needsDatasets("cleans real tidb files: version marks in headings, custom heading ids"), () => {
    const configuration = parseMarkdownDocument(readDataset(tidb, "tidb-configuration-file.md"), { source: "tidb-configuration-file.md" });
    expect(configuration.title).toBe("TiDB 配置文件描述");
    expect(configuration.category).toBeUndefined();
    expect(configuration.entities).toContain("/docs-cn/dev/tidb-configuration-file/");
    const breadcrumbs = configuration.chunks.map((chunk) => chunk.breadcrumb);
    expect(breadcrumbs).toContain("TiDB 配置文件描述 > split-table");
    expect(breadcrumbs).toContain("TiDB 配置文件描述 > tidb-max-reuse-chunk 从 v6.4.0 版本开始引入");
    expect(breadcrumbs).toContain("TiDB 配置文件描述 > log > level");
    const reuse = configuration.chunks.find((chunk) => chunk.breadcrumb.endsWith("tidb-max-reuse-chunk 从 v6.4.0 版本开始引入"));
    expect(reuse?.content.startsWith("### `tidb-max-reuse-chunk` 从 v6.4.0 版本开始引入\n")).toBe(true);

    const quickstart = parseMarkdownDocument(readDataset(tidb, "ai/quickstart-via-sql.md"), { source: "ai/quickstart-via-sql.md" });
    expect(quickstart.category).toBe("ai");
    expect(quickstart.chunks.map((chunk) => chunk.breadcrumb)).toContain("通过 SQL 快速上手 TiDB + AI > 快速上手 > 步骤 1. 连接到 TiDB");
  });
});
