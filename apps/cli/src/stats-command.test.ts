import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LookupResult } from "@lookup-knowledge/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetadataKeysSummary, metadataKeyLines } from "./stats-command.js";
import { runLookupKnowledge } from "./test/run-lookup-knowledge.js";

// Clear screen and a window title: what a hostile front matter value carries.
const escapes = "\u001b[2J\u001b]0;pwned\u0007";
const control = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u;

function page(title: string, category: string, keywords: string[], body: string): string {
  return `---\ntitle: ${title}\ncategory: ${category}\nkeywords: [${keywords.join(", ")}]\n---\n# ${title}\n\n${body}\n`;
}

describe("issue 35 item 4: lookup-knowledge stats lists the metadata keys and their most common values", () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-stats-"));
    await mkdir(join(cwd, "kb"));
    const files: Record<string, string> = {
      "refunds.md": page("Refunds", "billing", ["refund", "invoice"], "Owners can refund a paid invoice within 180 days."),
      "invoices.md": page("Invoices", "billing", ["invoice"], "An invoice is sent on the first day of each month."),
      "audit.md": page("Audit log", "security", ["audit"], "Admins can see the audit log of every workspace."),
      "tokens.md": page("API tokens", "security", ["token"], "Rotate an API token in the dashboard; the old one stops at once."),
      "hostile.md": `---\ntitle: Hostile\ncategory: "evil\\e[2J\\e]0;pwned\\a"\ndescription: "csi\\x9b2J bidi\\u202e"\n---\n# Hostile\n\nA page whose category carries escapes.\n`,
      "plain.md": "# Plain\n\nA page with no front matter about quotas.\n",
    };
    for (const [name, text] of Object.entries(files)) await writeFile(join(cwd, "kb", name), text);
    expect((await runLookupKnowledge(cwd, "--data", "data", "ingest", "--no-progress", "kb")).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("the text names each key with its chunk count and top values (escaped), and an example filter; --json gives the same counts", async () => {
    const text = await runLookupKnowledge(cwd, "--data", "data", "stats");
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('e.g. query --filter category=billing "..."');
    const category = text.stdout.split("\n").find((line) => /^ {2}category +/.test(line));
    expect(category).toMatch(
      /^ {2}category +5 chunks, 3 values: billing \(2\), security \(2\), evil\uFFFD\[2J\uFFFD\]0;pwned\uFFFD \(1\)$/,
    );
    expect(text.stdout).toMatch(/^ {2}keywords +6 chunks, 4 values: invoice \(2\), audit \(1\), refund \(1\), token \(1\)$/m);
    expect(text.stdout).toMatch(/^ {2}contentHash +6 chunks, 6 values: [0-9a-f]{37}\.\.\. \(1\), /m);
    expect(text.stdout).not.toMatch(control);

    const json = await runLookupKnowledge(cwd, "--data", "data", "stats", "--json");
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { chunks: number; metadataKeys: MetadataKeysSummary };
    expect(parsed.chunks).toBe(6);
    expect(parsed.metadataKeys.countedFrom).toBe("commit");
    expect(parsed.metadataKeys.keys.find((key) => key.key === "category")).toEqual({
      key: "category",
      chunks: 5,
      distinctValues: 3,
      topValues: [
        { value: "billing", chunks: 2 },
        { value: "security", chunks: 2 },
        { value: `evil${escapes}`, chunks: 1 },
      ],
    });
    // The JSON a terminal shows holds no control or format character raw (a C1 CSI, a bidi
    // override): they are written as \u escapes, and the values parse back whole.
    expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\p{Cf}]/u);
    expect(json.stdout).toContain("\\u009b2J");
    expect(parsed.metadataKeys.keys.find((key) => key.key === "description")?.topValues).toContainEqual({
      value: "csi\u009b2J bidi\u202e",
      chunks: 1,
    });
  }, 60_000);

  it("a value stats shows works as query --filter key=value: every block found carries it", async () => {
    const json = JSON.parse((await runLookupKnowledge(cwd, "--data", "data", "stats", "--json")).stdout) as {
      metadataKeys: MetadataKeysSummary;
    };
    const keywords = json.metadataKeys.keys.find((key) => key.key === "keywords");
    const top = keywords?.topValues[0];
    expect(top).toEqual({ value: "invoice", chunks: 2 });
    const answer = await runLookupKnowledge(
      cwd,
      "--data",
      "data",
      "query",
      "--json",
      "--filter",
      `keywords=${String(top?.value)}`,
      "invoice",
    );
    expect(answer.code).toBe(0);
    const result = JSON.parse(answer.stdout) as LookupResult;
    expect(result.found).toBe(true);
    const sources = result.evidenceBlocks.map((block) => block.source).sort();
    expect(sources).toEqual(["invoices.md", "refunds.md"]);
    const security = await runLookupKnowledge(cwd, "--data", "data", "query", "--json", "--filter", "category=security", "audit log");
    const blocks = (JSON.parse(security.stdout) as LookupResult).evidenceBlocks;
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.every((block) => ["audit.md", "tokens.md"].includes(block.source))).toBe(true);
  }, 60_000);

  it("R13: another store (libSQL) says plainly that it keeps no counts of its metadata keys", async () => {
    const store = ["--store", "libsql", "--store-url", `file:${join(cwd, "knowledge.db")}`];
    expect((await runLookupKnowledge(cwd, "--data", "libsql-data", ...store, "ingest", "--no-progress", "kb")).code).toBe(0);
    const text = await runLookupKnowledge(cwd, "--data", "libsql-data", ...store, "stats");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^metadata +not counted by this store \(it cannot list its keys or values\)/m);
    const json = JSON.parse((await runLookupKnowledge(cwd, "--data", "libsql-data", ...store, "stats", "--json")).stdout) as {
      metadataKeys: unknown;
      metadataKeysNote: string;
    };
    expect(json.metadataKeys).toBeNull();
    expect(json.metadataKeysNote).toMatch(/^not counted by this store/);
  }, 120_000);
});

describe("metadataKeyLines", () => {
  it("says when a key has too many values to list, quotes a value holding a comma or parentheses, and cuts a long one", () => {
    const lines = metadataKeyLines({
      countedFrom: "commit",
      valuesCountedPerKey: 5000,
      keys: [
        { key: "breadcrumb", chunks: 9000, topValues: [] },
        {
          key: "title",
          chunks: 3,
          distinctValues: 2,
          topValues: [
            { value: "Refunds, invoices (billing)", chunks: 2 },
            { value: "x".repeat(80), chunks: 1 },
          ],
        },
        { key: "year", chunks: 2, distinctValues: 1, topValues: [{ value: 2024, chunks: 2 }] },
        { key: "contentHash", chunks: 40, distinctValues: 40, topValues: [{ value: "a1", chunks: 1 }] },
      ],
    });
    expect(lines[0]).not.toContain("e.g.");
    expect(lines[1]).toBe("  breadcrumb   9000 chunks, more than 5000 values (none listed)");
    expect(lines[2]).toBe(`  title        3 chunks, 2 values: "Refunds, invoices (billing)" (2), ${"x".repeat(37)}... (1)`);
    expect(lines[3]).toBe("  year         2 chunks, 1 value: 2024 (2)");
    expect(lines[4]).toBe("  contentHash  40 chunks, 40 values, each on one chunk only");
    expect(lines).toHaveLength(5);
    const scanned = metadataKeyLines({
      countedFrom: "scan",
      valuesCountedPerKey: 5000,
      keys: [{ key: "year", chunks: 2, distinctValues: 1, topValues: [] }],
    });
    expect(scanned[1]).toBe(
      "  (counted now from every chunk: an earlier release wrote this index; the next ingest that changes a file keeps the counts)",
    );
    expect(metadataKeyLines({ countedFrom: "scan", valuesCountedPerKey: 5000, keys: [] })).toEqual([
      "metadata     none (the index holds no chunk)",
    ]);
  });
});
