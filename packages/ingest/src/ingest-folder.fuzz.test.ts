import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openLocalSearchPort } from "@lookup-knowledge/search-port/local";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestFolder } from "./ingest-folder.js";
import type { IngestReport } from "./report/ingest-report.js";

/** A fragment of hostile or ordinary Markdown. */
const fragment: fc.Arbitrary<string> = fc.oneof(
  fc.lorem({ maxCount: 30 }),
  fc
    .integer({ min: 1, max: 1500 })
    .map((depth) => Array.from({ length: depth }, (_, level) => `${"  ".repeat(level)}- level ${level}`).join("\n")),
  fc.integer({ min: 1, max: 6000 }).map((depth) => `${">".repeat(depth)} quoted`),
  fc.integer({ min: 1, max: 400 }).map((depth) => Array.from({ length: depth }, (_, level) => `${"> ".repeat(level)}- item`).join("\n")),
  fc.integer({ min: 1, max: 50 }).map((rows) => `| a | b |\n| --- | --- |\n${"| x | y |\n".repeat(rows)}`),
  fc.constantFrom("```js\nconst x = 1;\n```", "```\nnever closed", "~~~~\n~~~\n", "    indented code"),
  fc.integer({ min: 1000, max: 200_000 }).map((length) => "w".repeat(length)),
  fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code)), maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.constantFrom(
    "# Heading",
    "## *nested **emphasis** [link](x)*",
    "<Tabs>\n<TabItem>",
    "<!-- open comment",
    "{{< figure src=x >}}",
    "[".repeat(5000),
    "*a ".repeat(3000),
  ),
);

const frontMatter = fc.constantFrom(
  "",
  "---\ntitle: Fuzzed\nkeywords: [a, b]\n---\n\n",
  "---\ntitle: [broken\n---\n\n",
  "---\n- a list\n---\n\n",
  "---\ntitle: never closed\n",
);

interface FuzzFile {
  frontMatter: string;
  body: string[];
}

const file: fc.Arbitrary<FuzzFile> = fc.record({ frontMatter, body: fc.array(fragment, { maxLength: 5 }) });
const tree = fc.record({
  files: fc.array(file, { minLength: 1, maxLength: 4 }),
  /** Which files the second ingest changes (by index), and what they become. */
  changes: fc.array(fc.tuple(fc.nat(3), file), { maxLength: 3 }),
});

/** A word only this file has, searchable whatever surrounds it. */
function marker(round: number, index: number): string {
  return `zyx${"abcdefghij"[round]}${"klmnopqrst"[index]}marker`;
}

function render(content: FuzzFile, word: string): string {
  return `${content.frontMatter}${word} ${word}\n\n${content.body.join("\n\n")}\n`;
}

describe("ingestFolder fuzzed with random Markdown trees", () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "ingest-fuzz-"));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("finishes every tree within a bound, never crashes, and keeps committed documents searchable across a second ingest", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(tree, async ({ files, changes }) => {
        run += 1;
        const root = join(base, `tree-${run}`, "docs");
        const directory = join(base, `tree-${run}`, "index");
        const dataDirectory = join(base, `tree-${run}`, "data");
        const sources = files.map((_, index) => `section-${index % 2}/file-${index}.md`);
        const write = async (source: string, text: string): Promise<void> => {
          await mkdir(dirname(join(root, source)), { recursive: true });
          await writeFile(join(root, source), text);
        };
        for (const [index, content] of files.entries()) await write(sources[index] as string, render(content, marker(0, index)));

        const ingest = async (): Promise<IngestReport> => {
          const writer = await openLocalSearchPort({ directory, mode: "write" });
          try {
            return await ingestFolder({ root, dataDirectory, writer, parseWorkers: 1 });
          } finally {
            await writer.close();
          }
        };
        const findable = async (word: string): Promise<string[]> => {
          const reader = await openLocalSearchPort({ directory, mode: "read", minScore: 0 });
          try {
            return (await reader.search({ query: word, topK: 5 })).map((hit) => String(hit.metadata["source"]));
          } finally {
            await reader.close();
          }
        };

        const first = await ingest();
        expect(first.durationMs).toBeLessThan(30_000);
        expect(first.files).toBe(first.parsed + first.unchanged + first.noContent.length + first.failed.length);
        const committed = new Set(first.entries.map((entry) => entry.source));
        for (const failure of first.failed) expect(failure.reason).not.toBe("");

        const changed = new Map<number, FuzzFile>();
        for (const [index, content] of changes) if (index < files.length) changed.set(index, content);
        for (const [index, content] of changed) await write(sources[index] as string, render(content, marker(1, index)));

        const second = await ingest();
        expect(second.durationMs).toBeLessThan(30_000);
        expect(second.files).toBe(second.parsed + second.unchanged + second.noContent.length + second.failed.length);
        const failedNow = new Set(second.failed.map((failure) => failure.source));
        for (const [index, source] of sources.entries()) {
          if (!committed.has(source)) continue;
          // Unchanged, or changed into a file that fails: the committed version is still searchable.
          if (!changed.has(index) || failedNow.has(source)) {
            expect(await findable(marker(0, index)), `${source} after the second ingest`).toContain(source);
          } else if (second.entries.some((entry) => entry.source === source)) {
            expect(await findable(marker(1, index)), `${source}, changed`).toContain(source);
          }
        }
      }),
      { numRuns: 30, seed: 20261201, endOnFailure: true },
    );
  }, 240_000);
});
