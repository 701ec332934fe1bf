import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetsDirectory, needsDataset, skipWithoutDataset } from "../test/datasets.js";
import { expectWellFormed, ingestDataset } from "../test/ingest-dataset.js";
import { fileTitle } from "./document/file-title.js";

const dataset = "sourcegraph-handbook";

/** The level of a page's first ATX heading outside fenced code and frontmatter (a plain line scan, not the parser). */
function firstHeadingLevel(source: string): number | undefined {
  const text = readFileSync(join(datasetsDirectory, dataset, source), "utf8").replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, "");
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      continue;
    }
    if (marker !== undefined) fence = marker;
    const heading = /^ {0,3}(#{1,6})[ \t]+\S/.exec(line);
    if (heading !== null) return heading[1]?.length;
  }
  return undefined;
}

describe.skipIf(skipWithoutDataset(dataset))(needsDataset(dataset, "ingestFolder on the Sourcegraph handbook (titles from H1s)"), () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), "ingest-datasets-"));
  });
  afterAll(async () => {
    await rm(dataDirectory, { recursive: true, force: true });
  });

  it("issue 32: no page's title comes from an H2 or deeper: a page that opens with one is titled by its file name", async () => {
    const { report, writer } = await ingestDataset(dataset, join(dataDirectory, "sourcegraph"));
    expect(report.files).toBeGreaterThan(370);
    expect(report.failed).toEqual([]);
    expectWellFormed(report, writer);

    const withoutH1 = report.entries.filter((entry) => (firstHeadingLevel(entry.source) ?? 1) > 1);
    expect(withoutH1.length).toBeGreaterThan(15);
    expect(withoutH1.filter((entry) => entry.title !== fileTitle(entry.source)).map((entry) => [entry.source, entry.title])).toEqual([]);

    const phishing = writer.recordsOf("departments/tech-ops/process/internal-security/phishing-spoofing");
    expect(phishing[0]?.metadata).toMatchObject({ title: "Phishing spoofing", category: "departments" });
    expect(phishing.map((record) => record.metadata["breadcrumb"])).toContain("Phishing spoofing > Phishing/spoofing");
  }, 120_000);
});
