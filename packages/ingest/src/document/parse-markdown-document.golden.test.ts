import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { datasetsDirectory, needsDatasets, skipWithoutDatasets } from "../../test/datasets.js";
import { parseMarkdownDocument } from "./parse-markdown-document.js";
import { sha256 } from "../manifest/sha256.js";

// Golden files: what the parser gives today for real files, so a change of parser must keep
// every chunk byte for byte. `UPDATE_GOLDEN=1 pnpm exec vitest run src/document/parse-markdown-document.golden.test.ts`
// rewrites them. Dataset text is never stored: only digests and structure (counts, lengths).

const goldenDirectory = fileURLToPath(new URL("./test/golden/", import.meta.url));
const knowledgeBase = fileURLToPath(new URL("../../../../examples/knowledge-base/", import.meta.url));
const update = process.env.UPDATE_GOLDEN === "1";

/** A digest of one document's parse: metadata and every chunk, as hashes plus structure. */
function digestOf(text: string, source: string): unknown {
  try {
    const document = parseMarkdownDocument(text, { source });
    return {
      source,
      docId: document.docId,
      title: sha256(document.title),
      description: document.description === undefined ? null : sha256(document.description),
      category: document.category === undefined ? null : sha256(document.category),
      keywords: sha256(JSON.stringify(document.keywords)),
      entities: sha256(JSON.stringify(document.entities)),
      contentHash: document.contentHash,
      chunks: document.chunks.map((chunk) => ({
        chunkIndex: chunk.chunkIndex,
        breadcrumb: sha256(chunk.breadcrumb),
        breadcrumbParts: chunk.breadcrumb.split(" > ").length,
        length: chunk.content.length,
        content: chunk.contentHash,
        record: sha256(JSON.stringify(chunk)),
      })),
    };
  } catch (error) {
    return { source, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

function markdownFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.mdx?$/.test(entry.name)) files.push(path);
    }
  };
  walk(root);
  return files;
}

function expectGolden(name: string, root: string, files: readonly string[]): void {
  const digests = files.map((file) => digestOf(readFileSync(file, "utf8"), relative(root, file).replaceAll("\\", "/")));
  const path = join(goldenDirectory, `${name}.json`);
  if (update || !existsSync(path)) {
    if (!update && process.env.CI) throw new Error(`golden file ${path} is missing (write it with UPDATE_GOLDEN=1)`);
    mkdirSync(goldenDirectory, { recursive: true });
    writeFileSync(path, `[\n${digests.map((digest) => JSON.stringify(digest)).join(",\n")}\n]\n`);
  }
  const expected = JSON.parse(readFileSync(path, "utf8")) as unknown[];
  expect(digests.length).toBe(expected.length);
  for (const [index, digest] of digests.entries()) expect(digest, `${name}: ${files[index]}`).toEqual(expected[index]);
}

describe("issue 14: parseMarkdownDocument keeps its chunks byte for byte (golden files)", () => {
  it("issue 14: the example knowledge base and the markup sampler give the golden chunks", () => {
    const files = markdownFiles(knowledgeBase);
    expect(files.length).toBeGreaterThan(20);
    expectGolden("knowledge-base", knowledgeBase, files);
    expectGolden("markup-sampler", goldenDirectory, [join(goldenDirectory, "markup-sampler.mdx")]);
  });

  it.skipIf(skipWithoutDatasets)(
    needsDatasets("issue 14: every file of the APISIX docs (en) gives the golden chunks (tables, front matter, MDX-style imports)"),
    () => {
      const root = join(datasetsDirectory, "apisix-docs/docs");
      const files = markdownFiles(join(root, "en"));
      expect(files.length).toBeGreaterThan(150);
      expectGolden("apisix-en", root, files);
    },
    120_000,
  );

  it.skipIf(skipWithoutDatasets)(
    needsDatasets("issue 14: APISIX (zh) and TiDB (Hugo shortcodes) samples give the golden chunks"),
    () => {
      const apisix = join(datasetsDirectory, "apisix-docs/docs");
      const zh = ["zh/latest/admin-api.md", "zh/latest/plugins/limit-req.md", "zh/latest/terminology/route.md"];
      expectGolden(
        "apisix-zh-sample",
        apisix,
        zh.map((file) => join(apisix, file)),
      );
      const tidb = join(datasetsDirectory, "tidb-docs-cn");
      const hugo = [
        "tidb-configuration-file.md",
        "garbage-collection-configuration.md",
        "explain-index-merge.md",
        "explain-mpp.md",
        "ai/quickstart-via-sql.md",
        "system-variables.md",
      ];
      expectGolden(
        "tidb-sample",
        tidb,
        hugo.map((file) => join(tidb, file)),
      );
    },
    120_000,
  );
});
