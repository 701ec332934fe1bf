import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRecordingKnowledgeWriter } from "../test/recording-knowledge-writer.js";
import { ingestFolder } from "./ingest-folder.js";
import { ReadAhead } from "./files/read-ahead.js";
import { readRegularFile } from "./files/read-regular-file.js";

const fifoReason = "a named pipe (FIFO), not a regular file: not read";

// Issue 33: with --follow-symlinks a link to a FIFO hung the ingest (a read waits for a writer
// forever), and a FIFO named like a document was passed over without a word.
describe.skipIf(process.platform === "win32")("ingestFolder and files that are not regular files", () => {
  let base: string;
  let root: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "ingest-special-"));
    root = join(base, "docs");
    await mkdir(root);
    await writeFile(join(root, "guide.md"), "# Guide\n\nThe guide explains the gateway.\n");
    execFileSync("mkfifo", [join(root, "pipe.md")]);
    await symlink("pipe.md", join(root, "link.md"));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it.each([false, true])(
    "never opens a FIFO or a link to one (followSymlinks %s): each is reported skipped, the rest is ingested",
    async (followSymlinks) => {
      const writer = createRecordingKnowledgeWriter();
      const report = await ingestFolder({ root, dataDirectory: join(base, "data"), writer, options: { followSymlinks }, parseWorkers: 1 });
      expect(report.entries.map((entry) => entry.source)).toEqual(["guide.md"]);
      expect(report.skipped).toEqual([
        { source: "link.md", reason: `a symbolic link to ${fifoReason}` },
        { source: "pipe.md", reason: fifoReason },
      ]);
    },
  );

  it("a FIFO that takes a listed file's place is refused when read, at once, saying what it is", async () => {
    await expect(readRegularFile(join(root, "pipe.md"))).rejects.toThrow(fifoReason);
    await expect(readRegularFile(join(root, "guide.md"))).resolves.toEqual(Buffer.from("# Guide\n\nThe guide explains the gateway.\n"));
  });

  it("issue 36 item 6: a FIFO read ahead is refused on the stats the read-ahead took (one stat a file), a regular file read", async () => {
    expect(
      await stat(join(root, "pipe.md")).then((stats) => readRegularFile(join(root, "pipe.md"), undefined, stats).catch(String)),
    ).toContain(fifoReason);
    const reads = new ReadAhead([join(root, "guide.md"), join(root, "pipe.md"), join(root, "guide.md")], 2, 1024 * 1024);
    try {
      await expect(reads.read(0)).resolves.toEqual(Buffer.from("# Guide\n\nThe guide explains the gateway.\n"));
      await expect(reads.read(1)).rejects.toThrow(fifoReason);
      await expect(reads.read(2)).resolves.toEqual(Buffer.from("# Guide\n\nThe guide explains the gateway.\n"));
    } finally {
      reads.close();
    }
  });
});

// Issue 33: folders whose names hold CR or U+2028 were passed over without a word (the include
// globs' `**` does not cross a line terminator).
describe.skipIf(process.platform === "win32")("ingestFolder and folder names with line terminators", () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "ingest-line-terminators-"));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it.each(["a\rb", "c\u2028d", "e\u2029f", "g\nh"])("ingests the documents of a folder named %j", async (name) => {
    const root = join(base, "docs");
    await mkdir(join(root, name), { recursive: true });
    await writeFile(join(root, name, "page.md"), "# Page\n\nThe page explains the gateway.\n");
    await writeFile(join(root, "guide.md"), "# Guide\n\nThe guide explains routes.\n");
    const report = await ingestFolder({
      root,
      dataDirectory: join(base, "data"),
      writer: createRecordingKnowledgeWriter(),
      parseWorkers: 1,
    });
    expect(report.entries.map((entry) => entry.source)).toEqual(["guide.md", `${name}/page.md`].sort());
    expect(report.skipped).toEqual([]);
  });

  it("an exclude glob still leaves such a folder out", async () => {
    const root = join(base, "docs");
    await mkdir(join(root, "drafts\rold"), { recursive: true });
    await writeFile(join(root, "drafts\rold", "page.md"), "# Page\n\nOld draft.\n");
    await writeFile(join(root, "guide.md"), "# Guide\n\nThe guide explains routes.\n");
    const report = await ingestFolder({
      root,
      dataDirectory: join(base, "data"),
      writer: createRecordingKnowledgeWriter(),
      options: { exclude: ["drafts*/**"] },
      parseWorkers: 1,
    });
    expect(report.entries.map((entry) => entry.source)).toEqual(["guide.md"]);
  });
});

// Issue 33: a file whose name is not UTF-8 was reported as missing (ENOENT): its name came back
// with U+FFFD in place of the bad bytes and that path does not exist.
describe.skipIf(process.platform !== "linux")("ingestFolder and names that are not UTF-8", () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "ingest-not-utf8-"));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("reports a file or folder whose name is not UTF-8 as skipped, saying why, and ingests the rest", async () => {
    const root = join(base, "docs");
    await mkdir(root);
    await writeFile(join(root, "guide.md"), "# Guide\n\nThe guide explains the gateway.\n");
    const latin1 = (name: string) => Buffer.concat([Buffer.from(`${root}/`), Buffer.from(name, "latin1")]);
    await writeFile(latin1("caf\u00e9.md"), "# Cafe\n\nThe cafe page.\n");
    await mkdir(latin1("r\u00e9sum\u00e9s"));
    await writeFile(Buffer.concat([latin1("r\u00e9sum\u00e9s"), Buffer.from("/inner.md")]), "# Inner\n\nInner page.\n");
    const report = await ingestFolder({
      root,
      dataDirectory: join(base, "data"),
      writer: createRecordingKnowledgeWriter(),
      parseWorkers: 1,
    });
    expect(report.entries.map((entry) => entry.source)).toEqual(["guide.md"]);
    expect(report.failed).toEqual([]);
    const reason = "its name is not valid UTF-8 (rename it to read it)";
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        { source: "caf\uFFFD.md", reason },
        { source: "r\uFFFDsum\uFFFDs", reason },
      ]),
    );
    expect(report.skipped).toHaveLength(2);
  });
});
