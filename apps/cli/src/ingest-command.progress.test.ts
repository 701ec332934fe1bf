import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { ingestIntoStore } from "@lookup-knowledge/agent-tool/ingest";
import type { IngestProgress } from "@lookup-knowledge/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProgressBar } from "./ingest-progress-bar.js";
import { exampleKnowledgeBase } from "./test/run-lookup-knowledge.js";

/** A terminal as cli-progress sees one: `isTTY`, a width, and everything written kept. */
class FakeTerminal extends Writable {
  readonly isTTY = true;
  readonly columns = 120;
  written = "";

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.written += chunk.toString();
    callback();
  }

  /** Each line the bar drew, in order (a redraw moves to column 1 first). */
  frames(): string[] {
    return this.written
      .split(/\r|\u001b\[1G/)
      .map((frame) => frame.replace(/\u001b(?:\[[0-9;?]*[A-Za-z]|[78])/g, ""))
      .filter((frame) => frame.startsWith("ingest "));
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Longer than the bar's redraw interval (100 ms), so each step is drawn. */
const redraw = 150;
const fullBar = /\|\u2588+\|/;
const emptyBar = /\|\u2591+\|/;

describe("issue 35 item 4: the ingest bar's first frames on a terminal are honest", () => {
  it("says it is scanning until the number of files is known, then draws an empty bar at 0/N, never a full bar at 0/0", async () => {
    const terminal = new FakeTerminal();
    const display = createProgressBar(terminal);
    const progress: IngestProgress = { phase: "scan", filesTotal: 0, filesDone: 0, chunksTotal: 0, chunksWritten: 0 };
    display.update({ ...progress });
    await wait(redraw);
    display.update({ ...progress, phase: "parse", filesTotal: 3 });
    await wait(redraw);
    display.update({ ...progress, phase: "parse", filesTotal: 3, filesDone: 3 });
    await wait(redraw);
    // A run with nothing to write: 0 of 0 chunks is an empty bar too.
    display.update({ ...progress, phase: "write", filesTotal: 3, filesDone: 3 });
    await wait(redraw);
    display.stop();
    const frames = terminal.frames();
    expect(frames[0]).toBe("ingest scanning the folder...");
    const first = frames.find((frame) => frame.startsWith("ingest parsing"));
    expect(first).toMatch(/^ingest parsing \|\u2591+\| 0\/3 files$/);
    expect(frames.some((frame) => /^ingest parsing \|\u2588+\| 3\/3 files$/.test(frame))).toBe(true);
    expect(frames.find((frame) => frame.startsWith("ingest writing"))).toMatch(emptyBar);
    expect(frames.filter((frame) => / 0\/0 /.test(frame)).some((frame) => fullBar.test(frame))).toBe(false);
  });

  it("names the commit once every chunk is written, and keeps the write rate while it commits", async () => {
    const terminal = new FakeTerminal();
    const display = createProgressBar(terminal);
    const parsed: IngestProgress = { phase: "parse", filesTotal: 2, filesDone: 2, chunksTotal: 0, chunksWritten: 0 };
    display.update(parsed);
    display.update({ ...parsed, phase: "write", chunksTotal: 5 });
    await wait(redraw);
    display.update({ ...parsed, phase: "write", chunksTotal: 5, chunksWritten: 5 });
    await wait(redraw);
    display.update({ ...parsed, phase: "commit", chunksTotal: 5, chunksWritten: 5 });
    // A commit that takes a while: the bar redraws meanwhile, and its end is reported.
    await wait(3 * redraw);
    display.update({ ...parsed, phase: "done", chunksTotal: 5, chunksWritten: 5 });
    display.stop();
    const frames = terminal.frames();
    const written = frames.filter((frame) => frame.startsWith("ingest writing |")).at(-1);
    expect(written).toMatch(/^ingest writing \|\u2588+\| 5\/5 chunks \| \d+ chunks\/s$/);
    const committing = frames.filter((frame) => frame.startsWith("ingest committing") || frame.startsWith("ingest done"));
    expect(committing.length).toBeGreaterThan(0);
    const rate = written?.split("| 5/5 chunks")[1];
    for (const frame of committing)
      expect(frame).toMatch(new RegExp(`^ingest (committing|done) \\|\u2588{40}\\| 5/5 chunks${rate?.replace("|", "\\|")}$`));
  });

  describe("with the real ingest's progress reports", () => {
    let base: string;
    beforeAll(async () => {
      base = await mkdtemp(join(tmpdir(), "lookup-knowledge-bar-"));
    });
    afterAll(async () => {
      await rm(base, { recursive: true, force: true });
    });

    it("the first frame is the scan, no frame is a full bar at 0/0, and the files and chunks counted are the run's", async () => {
      const terminal = new FakeTerminal();
      const display = createProgressBar(terminal);
      const reports: IngestProgress[] = [];
      const report = await ingestIntoStore({
        root: exampleKnowledgeBase,
        dataDirectory: join(base, "data"),
        onProgress: (progress) => {
          reports.push(progress);
          display.update(progress);
        },
      });
      display.stop();
      expect(reports[0]).toMatchObject({ phase: "scan", filesTotal: 0 });
      const frames = terminal.frames();
      expect(frames[0]).toBe("ingest scanning the folder...");
      expect(frames.some((frame) => / 0\/0 /.test(frame) && fullBar.test(frame))).toBe(false);
      expect(frames).toContain(`ingest parsing |${"\u2588".repeat(40)}| ${report.files}/${report.files} files`);
      expect(
        frames.some((frame) => new RegExp(`^ingest writing \\|.*\\| ${report.chunksWritten}/${report.chunksWritten} chunks`).test(frame)),
      ).toBe(true);
    }, 60_000);
  });
});
