import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRecordingKnowledgeWriter } from "../test/recording-knowledge-writer.js";
import { ingestFolder } from "./ingest-folder.js";

function nestedList(depth: number): string {
  return Array.from({ length: depth }, (_, level) => `${"  ".repeat(level)}- item ${level}\n`).join("");
}

/** Ingests one file on the calling thread; how long it took and what became of it. */
async function ingestOne(base: string, name: string, text: string): Promise<{ milliseconds: number; content: string; failed: string[] }> {
  const root = join(base, name);
  await mkdir(root, { recursive: true });
  await writeFile(join(root, "deep.md"), text);
  const writer = createRecordingKnowledgeWriter();
  const started = performance.now();
  const report = await ingestFolder({ root, dataDirectory: join(base, `${name}-data`), writer, parseWorkers: 1 });
  const milliseconds = performance.now() - started;
  const content = [...writer.records.values()].map((record) => record.content).join("\n");
  return { milliseconds, content, failed: report.failed.map((failure) => `${failure.source}: ${failure.reason}`) };
}

describe("ingestFolder on deeply nested Markdown", () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "ingest-nesting-"));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("indexes lists nested 200, 400, 800 and 3,000 levels deep in time near-linear in their size, every item kept", async () => {
    const timings: Array<{ depth: number; bytes: number; milliseconds: number }> = [];
    for (const depth of [200, 400, 800, 3000]) {
      const text = nestedList(depth);
      // The best of two runs for the sizes compared below, so one GC pause or a busy CI machine cannot decide the ratio.
      const runs = depth >= 800 ? 2 : 1;
      let milliseconds = Number.POSITIVE_INFINITY;
      for (let run = 0; run < runs; run += 1) {
        const result = await ingestOne(base, `list-${depth}-${run}`, text);
        expect(result.failed).toEqual([]);
        for (const level of [0, depth >> 1, depth - 1]) expect(result.content).toMatch(new RegExp(`item ${level}$`, "m"));
        milliseconds = Math.min(milliseconds, result.milliseconds);
      }
      timings.push({ depth, bytes: text.length, milliseconds });
    }
    console.log(
      timings
        .map((timing) => `depth ${timing.depth}: ${(timing.bytes / 1e6).toFixed(2)} MB in ${(timing.milliseconds / 1000).toFixed(2)} s`)
        .join("; "),
    );
    // Unbounded, time grew about 7x per doubling of the depth (4x the bytes) and depth 3,000 (8.7 MB) did not finish in
    // 10 minutes. Near-linear: the cost per byte of the 9 MB file is at most a few times that of the 0.65 MB one.
    const [, , depth800, depth3000] = timings as [unknown, unknown, (typeof timings)[number], (typeof timings)[number]];
    const perByte800 = depth800.milliseconds / depth800.bytes;
    const perByte3000 = depth3000.milliseconds / depth3000.bytes;
    expect(perByte3000).toBeLessThan(perByte800 * 4);
    expect(depth3000.milliseconds).toBeLessThan(60_000);
  }, 180_000);

  it("indexes 5,000 nested block quotes on the calling thread without overflowing the stack", async () => {
    const result = await ingestOne(base, "quotes", `${">".repeat(5000)} the deepest words\n\nAfter the quotes.\n`);
    expect(result.failed).toEqual([]);
    expect(result.content).toContain("the deepest words");
    expect(result.content).toContain("After the quotes.");
    expect(result.milliseconds).toBeLessThan(30_000);
  }, 60_000);
});
