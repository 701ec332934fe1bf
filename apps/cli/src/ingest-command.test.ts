import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { IngestReport } from "@lookup-knowledge/ingest";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";
import { createIngestInterrupt, formatIngestReport, interruptedMessage } from "./ingest-command.js";
import { describeIngestProgress } from "./ingest-progress-display.js";
import { builtCli } from "./test/built-cli.js";

// The real command, built (turbo builds the package before its tests).
const cli = builtCli;
const run = promisify(execFile);

const report: IngestReport = {
  root: "/docs",
  files: 4,
  parsed: 2,
  added: 2,
  changed: 0,
  unchanged: 0,
  removed: 0,
  chunksWritten: 3,
  noContent: ["empty.md", "evil\u001b[2J.md"],
  skipped: [],
  failed: [],
  entries: [],
  durationMs: 1000,
};

describe("formatIngestReport", () => {
  it("counts and names the files with no content, so the files add up, with control characters of a path made harmless", () => {
    const text = formatIngestReport(report);
    expect(text).toContain("4 scanned: 2 added, 0 changed, 0 unchanged, 0 removed, 2 with no content, 0 skipped");
    expect(text).toContain("files with no content");
    expect(text).toContain("    empty.md");
    expect(text).toContain("    evil\uFFFD[2J.md");
    expect(text).not.toContain("\u001b");
  });
});

describe("interruptedMessage", () => {
  it("says nothing was committed only for the local index; other stores kept what was written before the signal", () => {
    expect(interruptedMessage("SIGINT", "local")).toBe(
      "lookup-knowledge: ingest interrupted by SIGINT; nothing of this run was committed; the index is as the last finished ingest left it",
    );
    for (const kind of ["pinecone", "langchain", "libsql"]) {
      const text = interruptedMessage("SIGTERM", kind);
      expect(text).toMatch(/^lookup-knowledge: ingest interrupted by SIGTERM; changes written before the interrupt were applied/);
      expect(text).toContain("run ingest again to finish");
      expect(text).not.toContain("nothing of this run was committed");
    }
  });
});

describe("createIngestInterrupt", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const progress = (phase: "write" | "commit" | "done") => ({ phase, filesTotal: 1, filesDone: 1, chunksTotal: 1, chunksWritten: 1 });

  it("aborts on the first signal and forces the exit after the grace period while the run writes", () => {
    vi.useFakeTimers();
    const exits: number[] = [];
    const interrupt = createIngestInterrupt((code) => exits.push(code), 1_500);
    interrupt.onProgress(progress("write"));
    interrupt.onSignal("SIGINT");
    expect(interrupt.signal.aborted).toBe(true);
    expect(interrupt.received).toBe("SIGINT");
    vi.advanceTimersByTime(1_499);
    expect(exits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(exits).toEqual([130]);
  });

  it("neither arms nor fires the forced exit once the commit began: the commit and the manifest write finish", () => {
    vi.useFakeTimers();
    const exits: number[] = [];
    const interrupt = createIngestInterrupt((code) => exits.push(code), 1_500);
    interrupt.onProgress(progress("commit"));
    interrupt.onSignal("SIGTERM");
    expect(interrupt.received).toBe("SIGTERM");
    vi.advanceTimersByTime(60_000);
    expect(exits).toEqual([]);
    interrupt.onSignal("SIGTERM");
    expect(exits).toEqual([143]);
  });
});

describe("describeIngestProgress", () => {
  it("shows both phases: files while parsing, then chunks written of the chunks to write", () => {
    const parsing = { phase: "parse" as const, filesTotal: 40, filesDone: 12, chunksTotal: 0, chunksWritten: 0 };
    expect(describeIngestProgress(parsing, 0)).toBe("parsing 12/40 files");
    const writing = { phase: "write" as const, filesTotal: 40, filesDone: 40, chunksTotal: 4724, chunksWritten: 300 };
    expect(describeIngestProgress(writing, 2)).toBe("writing 300/4724 chunks (150 chunks/s)");
  });
});

describe("lookup-knowledge ingest (the built CLI)", () => {
  let base: string;
  let root: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "lookup-knowledge-ingest-"));
    root = join(base, "docs");
    await cp(exampleKnowledgeBase, root, { recursive: true });
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("without a terminal, writes progress lines to stderr for both phases, parsing then writing", async () => {
    const { code, stderr } = await runLookupKnowledge(base, "--data", join(base, "progress-data"), "ingest", root);
    expect(code).toBe(0);
    const lines = stderr.split("\n").filter((line) => line.startsWith("lookup-knowledge: ingest "));
    expect(lines.some((line) => /^lookup-knowledge: ingest parsing \d+\/\d+ files$/.test(line))).toBe(true);
    expect(lines.some((line) => /^lookup-knowledge: ingest writing \d+\/[1-9]\d* chunks \(\d+ chunks\/s\)$/.test(line))).toBe(true);
    expect(lines.findIndex((line) => line.includes("parsing"))).toBeLessThan(lines.findIndex((line) => line.includes("writing")));
  }, 60_000);

  // `script` (util-linux) gives the command a terminal, so the bar is drawn.
  it.skipIf(!existsSync("/usr/bin/script"))(
    "on a terminal, the bar says it is scanning, then counts files while parsing, then chunks written of the chunks to write",
    async () => {
      const command = [process.execPath, cli, "--data", join(base, "bar-data"), "ingest", root].map((part) => `'${part}'`).join(" ");
      const { stdout } = await run("/usr/bin/script", ["-qec", command, "/dev/null"], {
        cwd: base,
        env: { ...process.env, NO_COLOR: "1" },
      });
      const frames = stdout.split(/\r|\u001b\[1G/).filter((frame) => frame.startsWith("ingest "));
      // Issue 35 item 4: the first frame says it is scanning; no frame is a full bar at 0/0.
      expect(frames[0]).toMatch(/^ingest scanning the folder\.\.\./);
      expect(frames.some((frame) => /\|\u2588+\| 0\/0 /.test(frame))).toBe(false);
      expect(frames.some((frame) => /^ingest parsing \|.*\| \d+\/[1-9]\d* files/.test(frame))).toBe(true);
      expect(frames.some((frame) => /^ingest writing \|.*\| [1-9]\d*\/[1-9]\d* chunks \| \d+ chunks\/s/.test(frame))).toBe(true);
    },
    60_000,
  );

  it("issue 35 item 4: a missing folder, a file or a folder with no Markdown is named with what to do", async () => {
    const missing = await runLookupKnowledge(base, "--data", join(base, "missing-data"), "ingest", "--no-progress", "no-such-folder");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`The ingest root does not exist: ${join(base, "no-such-folder")}`);
    expect(missing.stderr).toContain("Give the folder that holds your Markdown (.md, .mdx) files: `lookup-knowledge ingest <folder>`.");
    await writeFile(join(base, "notes.md"), "# Notes\n");
    const file = await runLookupKnowledge(base, "--data", join(base, "missing-data"), "ingest", "--no-progress", "notes.md");
    expect(file.code).toBe(2);
    expect(file.stderr).toContain("The ingest root is not a directory");
    expect(file.stderr).toContain("Give the folder that holds your Markdown");
    await mkdir(join(base, "no-markdown"));
    await writeFile(join(base, "no-markdown", "readme.txt"), "plain text\n");
    const empty = await runLookupKnowledge(base, "--data", join(base, "empty-data"), "ingest", "--no-progress", "no-markdown");
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain("0 scanned");
    expect(empty.stdout).toContain(
      "no Markdown file (.md, .mdx) was found in this folder: check the path, or ingest.include and ingest.exclude",
    );
  }, 60_000);

  it("--follow-symlinks follows a link inside the folder; without it the link is reported, not followed", async () => {
    const linked = join(base, "linked");
    await mkdir(join(linked, ".drafts"), { recursive: true });
    await writeFile(join(linked, ".drafts", "quota.md"), "# Quotas\n\nThe quota of a workspace is ten thousand calls.\n");
    await symlink(".drafts/quota.md", join(linked, "quota.md"));
    const data = join(base, "linked-data");
    const plain = await runLookupKnowledge(base, "--data", data, "ingest", "--no-progress", linked);
    expect(plain.stdout).toContain("symbolic links not followed (1):");
    expect(plain.stdout).toMatch(/ {4}quota\.md: a symbolic link, not followed/);
    expect(plain.stdout).toContain("documents  0 in the knowledge base");
    const followed = await runLookupKnowledge(base, "--data", data, "ingest", "--no-progress", "--follow-symlinks", linked);
    expect(followed.code).toBe(0);
    expect(followed.stdout).toContain("documents  1 in the knowledge base");
    expect(followed.stdout).not.toContain("symbolic links not followed");
  }, 60_000);

  it("stops within a few seconds on SIGINT in the middle of a large file, and the previous index still opens and answers", async () => {
    const data = join(base, "interrupted-data");
    const first = await runLookupKnowledge(base, "--data", data, "ingest", root);
    expect(first.code).toBe(0);
    await writeFile(join(root, "large.md"), "# Large\n\nA sentence of a large file, again and again.\n\n".repeat(700_000));
    try {
      const child = spawn(process.execPath, [cli, "--data", data, "ingest", root], { cwd: base, env: { ...process.env, NO_COLOR: "1" } });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      while (!stderr.includes("ingest parsing")) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const signalled = performance.now();
      child.kill("SIGINT");
      const code = await exited;
      const seconds = (performance.now() - signalled) / 1000;
      console.log(`SIGINT to exit: ${seconds.toFixed(2)} s`);
      expect(seconds).toBeLessThan(4);
      expect(code).toBe(130);
      expect(stderr).toContain("ingest interrupted by SIGINT");
    } finally {
      await rm(join(root, "large.md"));
    }
    const answer = await runLookupKnowledge(base, "--data", data, "query", "Who can issue a refund for a paid invoice?");
    expect(answer.code).toBe(0);
    expect(answer.stdout).toMatch(/found +true/);
    const again = await runLookupKnowledge(base, "--data", data, "ingest", "--no-progress", root);
    expect(again.stdout).toMatch(/0 added, 0 changed, \d+ unchanged/);
  }, 120_000);
});
