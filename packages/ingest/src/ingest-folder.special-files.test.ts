import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRecordingKnowledgeWriter } from "../test/recording-knowledge-writer.js";
import { ingestFolder } from "./ingest-folder.js";
import { readRegularFile } from "./read-regular-file.js";

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
});
