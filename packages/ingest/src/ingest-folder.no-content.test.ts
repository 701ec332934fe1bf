import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRecordingKnowledgeWriter } from "../test/recording-knowledge-writer.js";
import type { RecordingKnowledgeWriter } from "../test/recording-knowledge-writer.js";
import { ingestFolder } from "./ingest-folder.js";
import type { IngestReport } from "./report/ingest-report.js";
import { readIngestManifest } from "./manifest/read-ingest-manifest.js";
import { writeIngestManifest } from "./manifest/write-ingest-manifest.js";

/** The distinct docIds the writer holds. */
const docIdsOf = (writer: RecordingKnowledgeWriter): string[] =>
  [...new Set([...writer.records.values()].map((record) => String(record.metadata["docId"])))].sort();

/** The counts of a report agree with each other and with the store. */
function expectConsistent(report: IngestReport, writer: RecordingKnowledgeWriter): void {
  expect(report.parsed + report.unchanged + report.noContent.length + report.failed.length).toBe(report.files);
  expect(report.entries.map((entry) => entry.id).sort()).toEqual(docIdsOf(writer));
}

describe("ingestFolder: files with only front matter, and files with no content", () => {
  let root: string;
  let data: string;
  const put = async (source: string, content: string): Promise<void> => {
    await mkdir(dirname(join(root, source)), { recursive: true });
    await writeFile(join(root, source), content);
  };

  beforeEach(async () => {
    const base = await mkdtemp(join(tmpdir(), "ingest-no-content-"));
    root = join(base, "content");
    data = join(base, "data");
    await mkdir(root);
    await put("_index.md", "---\ntitle: Hugo documentation\ndescription: Build websites fast.\n---\n");
    await put("functions/_index.md", "---\ntitle: Functions\nweight: 10\n---\n");
    await put("functions/len.md", "---\ntitle: len\n---\n\nReturns the length of a string, slice, map or collection.\n");
    await put("empty.md", "");
    await put("functions/hidden.md", "---\nweight: 3\nbuild:\n  render: never\n---\n");
  });

  afterEach(async () => {
    await rm(dirname(root), { recursive: true, force: true });
  });

  it("indexes section pages by their front matter, reports files with no content apart, and counts documents as the store does", async () => {
    const writer = createRecordingKnowledgeWriter();
    const report = await ingestFolder({ root, dataDirectory: data, writer });
    expect(report).toMatchObject({ files: 5, parsed: 3, added: 3, unchanged: 0, removed: 0, failed: [] });
    expect(report.noContent).toEqual(["empty.md", "functions/hidden.md"]);
    expect(report.entries.map((entry) => entry.id)).toEqual(["_index", "functions/_index", "functions/len"]);
    expect(writer.recordsOf("_index").map((record) => record.content)).toEqual(["Hugo documentation\n\nBuild websites fast."]);
    expect(writer.recordsOf("functions/_index").map((record) => record.metadata["breadcrumb"])).toEqual(["Functions"]);
    expectConsistent(report, writer);
    const manifest = await readIngestManifest(data);
    expect(Object.keys(manifest?.documents ?? {})).toEqual(["_index", "functions/_index", "functions/len"]);
    expect(Object.values(manifest?.documents ?? {}).every((document) => document.chunkCount > 0)).toBe(true);
  });

  it("skips unchanged files with no content on the next run, still reporting them", async () => {
    const writer = createRecordingKnowledgeWriter();
    await ingestFolder({ root, dataDirectory: data, writer });
    writer.calls.length = 0;
    const second = await ingestFolder({ root, dataDirectory: data, writer });
    expect(second).toMatchObject({ files: 5, parsed: 0, unchanged: 3, added: 0, removed: 0 });
    expect(second.noContent).toEqual(["empty.md", "functions/hidden.md"]);
    expect(writer.calls).toEqual([]);
    expectConsistent(second, writer);
  });

  it("adds a file that gains content and removes the chunks of a document that loses all of it", async () => {
    const writer = createRecordingKnowledgeWriter();
    await ingestFolder({ root, dataDirectory: data, writer });
    await put("functions/hidden.md", "---\nweight: 3\n---\n\nNow it says something.\n");
    await put("functions/len.md", "---\nweight: 1\n---\n");
    const report = await ingestFolder({ root, dataDirectory: data, writer });
    expect(report).toMatchObject({ files: 5, parsed: 1, added: 1, changed: 0, unchanged: 2, removed: 1 });
    expect(report.noContent).toEqual(["empty.md", "functions/len.md"]);
    expect(writer.recordsOf("functions/len")).toEqual([]);
    expect(writer.recordsOf("functions/hidden").map((record) => record.content)).toEqual(["Now it says something."]);
    expectConsistent(report, writer);
  });

  it("does not keep, for a file that fails, a document an older manifest recorded without chunks", async () => {
    const writer = createRecordingKnowledgeWriter();
    await ingestFolder({ root, dataDirectory: data, writer });
    const manifest = await readIngestManifest(data);
    if (manifest === undefined) throw new Error("no manifest");
    const entry = { id: "broken", source: "broken.md", title: "Broken", keywords: [], entities: [] };
    await writeIngestManifest(data, {
      ...manifest,
      documents: { ...manifest.documents, broken: { source: "broken.md", hash: "old", chunkCount: 0, entry } },
    });
    await put("broken.md", "---\ntitle: [unclosed\n---\n");
    const report = await ingestFolder({ root, dataDirectory: data, writer });
    expect(report.failed.map((failure) => failure.source)).toEqual(["broken.md"]);
    expect(report.entries.map((entry) => entry.id)).not.toContain("broken");
    expectConsistent(report, writer);
  });
});
