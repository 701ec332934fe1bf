import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KnowledgeRecord, KnowledgeWriter } from "@lookup-knowledge/search-port";
import { createRecordingKnowledgeWriter } from "../test/recording-knowledge-writer.js";
import { IngestError } from "./ingest-error.js";
import { ingestFolder } from "./ingest-folder.js";
import type { IngestProgress } from "./report/ingest-progress.js";
import { readIngestManifest } from "./manifest/read-ingest-manifest.js";

const sentence = (topic: string, index: number): string => `The ${topic} note ${index} says something useful about the product.`;
const section = (heading: string, sentences: number): string =>
  `## ${heading}\n\n${Array.from({ length: sentences }, (_, index) => sentence(heading, index)).join(" ")}\n`;

describe("ingestFolder", () => {
  let root: string;
  let data: string;
  const put = async (source: string, content: string | Uint8Array): Promise<void> => {
    await mkdir(dirname(join(root, source)), { recursive: true });
    await writeFile(join(root, source), content);
  };

  beforeEach(async () => {
    const base = await mkdtemp(join(tmpdir(), "ingest-folder-"));
    root = join(base, "docs");
    data = join(base, "data");
    await mkdir(root);
    await put("index.md", "---\ntitle: Home\nkeywords: [start]\n---\n\nWelcome.\n");
    await put("guides/install.md", `---\ntitle: Install\ntags: [setup]\n---\n\n${section("Linux", 40)}\n${section("macOS", 40)}`);
    await put(
      "guides/tabs.mdx",
      "import Tabs from '@theme/Tabs';\n\n# Tabs\n\n<Tabs>\n<TabItem value=\"a\">\n\nInside a tab.\n\n</TabItem>\n</Tabs>\n",
    );
    await put("broken-yaml.md", "---\ntitle: [unclosed\n---\n\nText.\n");
    await put("list-frontmatter.md", "---\n- a\n- b\n---\n\nText.\n");
    await put("bad-bytes.md", new Uint8Array([0x23, 0x20, 0x41, 0x0a, 0xff, 0xfe, 0x41, 0x0a]));
    await put("node_modules/pkg/readme.md", "# Dependency\n");
    await put(".cache/notes.md", "# Hidden\n");
    await put("notes.txt", "not markdown");
  });

  afterEach(async () => {
    await rm(dirname(root), { recursive: true, force: true });
  });

  it("refuses to ingest another folder into a data folder that holds one, unless told to replace it", async () => {
    const writer = createRecordingKnowledgeWriter();
    await ingestFolder({ root, dataDirectory: data, writer });
    const other = join(dirname(root), "other");
    await mkdir(other);
    await writeFile(join(other, "only.md"), "# Only\n\nThe one document of another folder.\n");
    const error = await ingestFolder({ root: other, dataDirectory: data, writer }).catch((caught: unknown) => caught);
    expect(IngestError.isInstance(error) && error.code).toBe("different_ingest_root");
    expect((error as Error).message).toContain(root);
    expect(writer.recordsOf("guides/install").length).toBeGreaterThan(0);

    const replaced = await ingestFolder({ root: other, dataDirectory: data, writer, replace: true });
    expect(replaced).toMatchObject({ added: 1, removed: 3 });
    expect(writer.recordsOf("guides/install")).toEqual([]);
    expect((await readIngestManifest(data))?.root).toBe(other);
  });

  it("rebuild writes every document again, for a store that was emptied", async () => {
    const writer = createRecordingKnowledgeWriter();
    await ingestFolder({ root, dataDirectory: data, writer });
    const empty = createRecordingKnowledgeWriter();
    const skipped = await ingestFolder({ root, dataDirectory: data, writer: empty });
    expect(skipped.chunksWritten).toBe(0);
    const rebuilt = await ingestFolder({ root, dataDirectory: data, writer: empty, rebuild: true });
    expect(rebuilt.chunksWritten).toBeGreaterThan(0);
    expect(empty.recordsOf("guides/install").length).toBe(writer.recordsOf("guides/install").length);
  });

  it("makes the writes durable (writer.commit) before it records them in the manifest", async () => {
    const writer = createRecordingKnowledgeWriter();
    const order: string[] = [];
    let failCommit = true;
    const committing = {
      upsert: writer.upsert.bind(writer),
      deleteDocuments: writer.deleteDocuments.bind(writer),
      async commit() {
        order.push("commit");
        if (failCommit) throw new Error("disk full");
      },
    };
    await expect(ingestFolder({ root, dataDirectory: data, writer: committing })).rejects.toThrow("disk full");
    expect(await readIngestManifest(data)).toBeUndefined();

    failCommit = false;
    const report = await ingestFolder({ root, dataDirectory: data, writer: committing });
    expect(report.added).toBe(3);
    expect(order).toEqual(["commit", "commit"]);
    expect(Object.keys((await readIngestManifest(data))?.documents ?? {})).toHaveLength(3);
  });

  it("issue 14: hands the parsed records to embedAhead in the batches they are upserted in, all before the first upsert", async () => {
    const inner = createRecordingKnowledgeWriter();
    const order: string[] = [];
    const ahead: KnowledgeRecord[][] = [];
    const upserted: KnowledgeRecord[][] = [];
    const writer: KnowledgeWriter = {
      upsert: async (batch, options) => {
        order.push("upsert");
        upserted.push(batch);
        await inner.upsert(batch, options);
      },
      deleteDocuments: (docIds, options) => inner.deleteDocuments(docIds, options),
      embedAhead: (records) => {
        order.push("ahead");
        ahead.push([...records]);
      },
    };
    const report = await ingestFolder({ root, dataDirectory: data, writer, batchSize: 4 });
    // 6 chunks: a full batch and the rest.
    expect(report.chunksWritten).toBe(6);
    expect(ahead.map((batch) => batch.length)).toEqual([4, 2]);
    expect(order.lastIndexOf("ahead")).toBeLessThan(order.indexOf("upsert"));
    expect(ahead).toEqual(upserted);
    expect(ahead.flat().map((record) => record.id)).toEqual([...inner.records.keys()]);
  });

  it("issue 14: a writer whose embedAhead throws or rejects is ingested into all the same", async () => {
    // An async embedAhead still fits the `void` signature: its rejection must be caught too.
    const failures: Array<NonNullable<KnowledgeWriter["embedAhead"]>> = [
      () => {
        throw new Error("hint failed");
      },
      async () => {
        throw new Error("hint rejected");
      },
    ];
    for (const [index, failing] of failures.entries()) {
      const inner = createRecordingKnowledgeWriter();
      const writer: KnowledgeWriter = {
        upsert: (batch, options) => inner.upsert(batch, options),
        deleteDocuments: (docIds, options) => inner.deleteDocuments(docIds, options),
        embedAhead: failing,
      };
      const report = await ingestFolder({ root, dataDirectory: join(data, `run-${index}`), writer, batchSize: 4 });
      expect(report.failed.map((file) => file.source)).toEqual(["bad-bytes.md", "broken-yaml.md", "list-frontmatter.md"]);
      expect(report.chunksWritten).toBe(6);
      expect(inner.records.size).toBe(6);
    }
  });

  it("ingests the folder, reports broken files with path and reason, and goes on", async () => {
    const writer = createRecordingKnowledgeWriter();
    const progress: IngestProgress[] = [];
    const report = await ingestFolder({ root, dataDirectory: data, writer, batchSize: 4, onProgress: (event) => progress.push(event) });

    expect(report).toMatchObject({ root, files: 6, parsed: 3, unchanged: 0, added: 3, changed: 0, removed: 0 });
    expect(report.failed).toEqual([
      { source: "bad-bytes.md", reason: "not valid UTF-8" },
      { source: "broken-yaml.md", reason: expect.stringMatching(/^frontmatter is not valid YAML/) },
      { source: "list-frontmatter.md", reason: "frontmatter is not a mapping (got a list)" },
    ]);
    expect(report.parsed + report.unchanged + report.failed.length).toBe(report.files);
    expect(report.entries.map((entry) => entry.id)).toEqual(["guides/install", "guides/tabs", "index"]);
    expect(report.entries[0]).toEqual({
      id: "guides/install",
      source: "guides/install.md",
      title: "Install",
      keywords: [],
      domain: "guides",
      entities: ["setup"],
    });

    const install = writer.recordsOf("guides/install");
    expect(install.length).toBeGreaterThan(2);
    expect(install.map((record) => record.id)).toEqual(install.map((_, index) => `guides/install#chunk-${index}`));
    expect(install[0]?.metadata).toMatchObject({
      docId: "guides/install",
      chunkIndex: 0,
      source: "guides/install.md",
      breadcrumb: "Install > Linux",
      category: "guides",
    });
    expect(writer.recordsOf("guides/tabs").map((record) => record.content)).toEqual(["# Tabs\n\nInside a tab."]);
    expect(report.chunksWritten).toBe(writer.records.size);

    // Deletes first, then upserts in batches of at most batchSize, with progress after each batch.
    expect(writer.calls[0]?.method).toBe("deleteDocuments");
    const upserts = writer.calls.filter((call) => call.method === "upsert");
    expect(upserts.every((call) => call.method === "upsert" && call.ids.length <= 4)).toBe(true);
    const writes = progress.filter((event) => event.phase === "write" && event.chunksWritten > 0);
    expect(writes.map((event) => event.chunksWritten)).toEqual(upserts.map((_, index) => Math.min((index + 1) * 4, report.chunksWritten)));
    expect(progress[0]).toMatchObject({ phase: "scan" });
    expect(progress.at(-1)).toEqual({
      phase: "done",
      filesTotal: 6,
      filesDone: 6,
      chunksTotal: report.chunksWritten,
      chunksWritten: report.chunksWritten,
    });

    const manifest = await readIngestManifest(data);
    expect(Object.keys(manifest?.documents ?? {})).toEqual(["guides/install", "guides/tabs", "index"]);
    expect(manifest?.documents["guides/install"]?.chunkCount).toBe(install.length);
  });

  it("skips unchanged files, replaces a changed file's chunks and deletes a removed file's", async () => {
    const writer = createRecordingKnowledgeWriter();
    await ingestFolder({ root, dataDirectory: data, writer });
    const before = writer.recordsOf("guides/install").length;

    writer.calls.length = 0;
    const second = await ingestFolder({ root, dataDirectory: data, writer });
    expect(second).toMatchObject({ files: 6, parsed: 0, unchanged: 3, added: 0, changed: 0, removed: 0, chunksWritten: 0 });
    expect(writer.calls).toEqual([]);
    expect(second.entries.map((entry) => entry.id)).toEqual(["guides/install", "guides/tabs", "index"]);

    await put("guides/install.md", "---\ntitle: Install\n---\n\n## Linux\n\nRun the installer.\n");
    await rm(join(root, "guides/tabs.mdx"));
    writer.calls.length = 0;
    const third = await ingestFolder({ root, dataDirectory: data, writer });
    expect(third).toMatchObject({ files: 5, parsed: 1, unchanged: 1, added: 0, changed: 1, removed: 1, chunksWritten: 1 });
    expect(writer.calls).toEqual([
      { method: "deleteDocuments", docIds: ["guides/install", "guides/tabs"] },
      { method: "upsert", ids: ["guides/install#chunk-0"] },
    ]);
    expect(before).toBeGreaterThan(1);
    expect(writer.recordsOf("guides/install").map((record) => record.content)).toEqual(["## Linux\n\nRun the installer."]);
    expect(writer.recordsOf("guides/tabs")).toEqual([]);
    expect(third.entries.map((entry) => entry.id)).toEqual(["guides/install", "index"]);
    const manifest = await readIngestManifest(data);
    expect(Object.keys(manifest?.documents ?? {})).toEqual(["guides/install", "index"]);
    expect(manifest?.documents["guides/install"]?.chunkCount).toBe(1);
  });

  it("re-ingests everything when the options change", async () => {
    const writer = createRecordingKnowledgeWriter();
    await ingestFolder({ root, dataDirectory: data, writer });
    const small = await ingestFolder({ root, dataDirectory: data, writer, options: { maxChunkChars: 400, overlapChars: 50 } });
    expect(small).toMatchObject({ parsed: 3, unchanged: 0, added: 0, changed: 3, removed: 0 });
    for (const record of writer.records.values()) expect(record.content.length).toBeLessThanOrEqual(400);
    const again = await ingestFolder({ root, dataDirectory: data, writer, options: { maxChunkChars: 400, overlapChars: 50 } });
    expect(again).toMatchObject({ parsed: 0, unchanged: 3 });
  });

  it("keeps the old chunks of a file that breaks, and retries it on the next run", async () => {
    const writer = createRecordingKnowledgeWriter();
    await ingestFolder({ root, dataDirectory: data, writer });
    const chunks = writer.recordsOf("index");
    await put("index.md", "---\ntitle: [broken\n---\n\nWelcome.\n");
    const broken = await ingestFolder({ root, dataDirectory: data, writer });
    expect(broken.failed.map((failure) => failure.source)).toContain("index.md");
    expect(broken).toMatchObject({ parsed: 0, removed: 0 });
    expect(writer.recordsOf("index")).toEqual(chunks);
    expect(broken.entries.map((entry) => entry.id)).toContain("index");

    await put("index.md", "---\ntitle: Home again\n---\n\nWelcome back.\n");
    const fixed = await ingestFolder({ root, dataDirectory: data, writer });
    expect(fixed).toMatchObject({ parsed: 1, changed: 1 });
    expect(writer.recordsOf("index").map((record) => record.content)).toEqual(["Welcome back."]);
  });

  it("a rebuild forgets a file that breaks: its old chunks are not in the emptied store", async () => {
    await ingestFolder({ root, dataDirectory: data, writer: createRecordingKnowledgeWriter() });
    await put("index.md", "---\ntitle: [broken\n---\n\nWelcome.\n");
    const empty = createRecordingKnowledgeWriter();
    const rebuilt = await ingestFolder({ root, dataDirectory: data, writer: empty, rebuild: true });
    expect(rebuilt.failed.map((failure) => failure.source)).toContain("index.md");
    expect(empty.recordsOf("index")).toEqual([]);
    expect(rebuilt.removed).toBe(1);
    expect(rebuilt.entries.map((entry) => entry.id)).not.toContain("index");
    expect((await readIngestManifest(data))?.documents["index"]).toBeUndefined();
  });

  it("refuses a second file with the same docId", async () => {
    await put("guides/install.mdx", "# Other install\n");
    const report = await ingestFolder({ root, dataDirectory: data, writer: createRecordingKnowledgeWriter() });
    expect(report.failed).toContainEqual({
      source: "guides/install.mdx",
      reason: 'its docId "guides/install" is already taken by guides/install.md',
    });
  });

  it("honours include and exclude globs", async () => {
    const report = await ingestFolder({
      root,
      dataDirectory: data,
      writer: createRecordingKnowledgeWriter(),
      options: { include: ["guides/**/*.md", "guides/**/*.mdx"], exclude: ["**/tabs.mdx"] },
    });
    expect(report.entries.map((entry) => entry.id)).toEqual(["guides/install"]);
    expect(report.files).toBe(1);
  });

  it("writes no manifest when the writer fails, so the next run repeats the work", async () => {
    const writer = createRecordingKnowledgeWriter();
    const failing = { ...writer, upsert: async () => Promise.reject(new Error("store is down")) };
    await expect(ingestFolder({ root, dataDirectory: data, writer: failing })).rejects.toThrow("store is down");
    await expect(readIngestManifest(data)).resolves.toBeUndefined();
    const retry = await ingestFolder({ root, dataDirectory: data, writer });
    expect(retry).toMatchObject({ parsed: 3, added: 3 });
  });

  it("stops when aborted, without writing the manifest", async () => {
    const controller = new AbortController();
    const run = ingestFolder({
      root,
      dataDirectory: data,
      writer: createRecordingKnowledgeWriter(),
      signal: controller.signal,
      onProgress: (event) => {
        if (event.phase === "parse" && event.filesDone === 2) controller.abort();
      },
    });
    await expect(run).rejects.toThrow(/abort/i);
    await expect(readIngestManifest(data)).resolves.toBeUndefined();
  });

  it("does not commit when aborted during the last write, and reports the commit phase before committing", async () => {
    const controller = new AbortController();
    const recording = createRecordingKnowledgeWriter();
    const phases: string[] = [];
    let commits = 0;
    const writer = {
      ...recording,
      async upsert(batch: Parameters<typeof recording.upsert>[0]) {
        await recording.upsert(batch);
        // The signal arrives while the (last) batch is written: the writer call itself finishes.
        controller.abort(new Error("interrupted"));
      },
      async commit() {
        commits += 1;
      },
    };
    const run = ingestFolder({
      root,
      dataDirectory: data,
      writer,
      batchSize: 10_000,
      signal: controller.signal,
      onProgress: (event) => phases.push(event.phase),
    });
    await expect(run).rejects.toThrow("interrupted");
    expect(commits).toBe(0);
    expect(phases).not.toContain("commit");
    await expect(readIngestManifest(data)).resolves.toBeUndefined();

    const finished: string[] = [];
    await ingestFolder({
      root,
      dataDirectory: data,
      writer: { ...recording, commit: async () => void finished.push("commit()") },
      onProgress: (event) => finished.push(event.phase),
    });
    expect(finished.slice(-3)).toEqual(["commit", "commit()", "done"]);
  });

  it("refuses a missing root, a root that is a file, a corrupt manifest and bad settings", async () => {
    const writer = createRecordingKnowledgeWriter();
    const missing = await ingestFolder({ root: join(root, "nope"), dataDirectory: data, writer }).catch((error: unknown) => error);
    expect(IngestError.isInstance(missing)).toBe(true);
    expect((missing as IngestError).code).toBe("invalid_ingest_root");
    expect((missing as IngestError).message).toMatch(/does not exist: .*nope$/);
    await expect(ingestFolder({ root: join(root, "index.md"), dataDirectory: data, writer })).rejects.toThrow(/not a directory/);
    await mkdir(data, { recursive: true });
    await writeFile(join(data, "ingest-manifest.json"), "[]");
    await expect(ingestFolder({ root, dataDirectory: data, writer })).rejects.toThrow(/ingest manifest is invalid/);
    await expect(ingestFolder({ root, dataDirectory: data, writer, batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(ingestFolder({ root, dataDirectory: data, writer, parseWorkers: 0 })).rejects.toThrow(/parseWorkers/);
  });
});
