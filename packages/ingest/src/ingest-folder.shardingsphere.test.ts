import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetsDirectory, needsDataset, skipWithoutDataset } from "../test/datasets.js";
import { expectWellFormed, ingestDataset } from "../test/ingest-dataset.js";

const dataset = "shardingsphere-docs";

/** The `title = "..."` line of a page's `+++` block, read without a TOML parser (the dataset's titles have no escapes). */
function tomlTitle(source: string): string | undefined {
  const text = readFileSync(join(datasetsDirectory, dataset, source), "utf8");
  const block = /^\+\+\+\r?\n([\s\S]*?)\r?\n\+\+\+/.exec(text)?.[1] ?? "";
  return /^title\s*=\s*"([^"\\]*)"\s*$/m.exec(block)?.[1];
}

describe.skipIf(skipWithoutDataset(dataset))(
  needsDataset(dataset, "ingestFolder on the ShardingSphere docs (Hugo, TOML frontmatter)"),
  () => {
    let dataDirectory: string;
    beforeAll(async () => {
      dataDirectory = await mkdtemp(join(tmpdir(), "ingest-datasets-"));
    });
    afterAll(async () => {
      await rm(dataDirectory, { recursive: true, force: true });
    });

    it("issue 32: every page's title is its TOML title (never a heading such as Background), and no +++ block reaches a chunk", async () => {
      const { report, writer } = await ingestDataset(dataset, join(dataDirectory, "shardingsphere"));
      expect(report.files).toBeGreaterThan(750);
      expect(report.failed).toEqual([]);
      expectWellFormed(report, writer);

      const titles = report.entries.map((entry) => [entry.source, entry.title]);
      expect(titles).toHaveLength(report.parsed);
      expect(titles.filter(([, title]) => title === "Background")).toEqual([]);
      expect(titles.filter(([source, title]) => title !== tomlTitle(String(source)))).toEqual([]);
      for (const record of writer.records.values()) {
        expect(record.metadata["title"]).toBe(tomlTitle(String(record.metadata["source"])));
        expect(record.content).not.toMatch(/^\+\+\+|^weight = \d+$/m);
      }

      const gateway = writer.recordsOf("en/features/db-gateway/_index");
      expect(gateway[0]?.metadata).toMatchObject({ title: "DB Gateway", category: "en" });
      expect(gateway.map((record) => record.metadata["breadcrumb"])).toContain("DB Gateway > Background");
    }, 120_000);
  },
);
