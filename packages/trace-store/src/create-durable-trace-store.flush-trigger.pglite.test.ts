import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRecord, window } from "../test/make-record.js";
import { createDurableTraceStore } from "./create-durable-trace-store.js";
import { openTraceDatabase } from "./database/open-trace-database.js";

/** Bytes in the spool's segments now. */
function spoolBytes(directory: string): number {
  const spool = join(directory, "spool");
  let total = 0;
  for (const entry of readdirSync(spool)) {
    if (!/\.(open|jsonl)$/.test(entry) || entry === "rejected.jsonl") continue;
    try {
      total += statSync(join(spool, entry)).size;
    } catch {
      // Removed by the flusher meanwhile.
    }
  }
  return total;
}

describe("the durable trace store's background flush", () => {
  let root: string;
  let databaseDirectory: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "trace-flush-trigger-"));
    databaseDirectory = join(root, "database");
    await (await openTraceDatabase({ directory: databaseDirectory })).close();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("R29: back-to-back lookups that never let the flush timer run still get flushed once flushAfterRecords is passed; the spool stays bounded", async () => {
    const directory = mkdtempSync(join(root, "traces-"));
    // The timer never gets its turn within the test: only the record count can start a flush.
    const store = createDurableTraceStore({ directory, databaseDirectory, flushIntervalMs: 3_600_000, flushAfterRecords: 200, idleCloseMs: 5_000, onError: () => undefined });
    const { base, since, until } = window(2601);
    const total = 4000;
    const lineBytes = Buffer.byteLength(`${JSON.stringify(makeRecord(0, base))}\n`);
    let largestLate = 0;
    for (let index = 0; index < total; index += 1) {
      await store.record(makeRecord(index, base));
      // A lookup's own I/O (a file read) is all the event loop gets between two lookups.
      await stat(directory);
      if (index >= total / 2 && index % 50 === 0) largestLate = Math.max(largestLate, spoolBytes(directory));
    }
    const leftAtEnd = spoolBytes(directory);
    const rest = await store.flush();
    console.info(
      `${total} records of ${lineBytes} bytes (${((total * lineBytes) / 1048576).toFixed(1)} MiB): spool at most ${(largestLate / 1048576).toFixed(2)} MiB in the second half, ${(leftAtEnd / 1048576).toFixed(2)} MiB at the end; ${rest.flushed} left for the final flush`,
    );
    // Without the count trigger every record would still be in the spool (about 12 MiB).
    expect(rest.flushed).toBeLessThan(total / 2);
    expect(largestLate).toBeLessThan(4 * 1024 * 1024);
    expect(await store.count()).toBeGreaterThanOrEqual(total);
    expect(await store.list({ since, until, limit: 1 })).toHaveLength(1);
    await store.close();
  }, 120_000);

  it("R29: a flush also starts once flushAfterBytes were appended; both bounds must be whole numbers", async () => {
    const directory = mkdtempSync(join(root, "traces-"));
    const { base } = window(2602);
    const store = createDurableTraceStore({ directory, databaseDirectory, flushIntervalMs: 3_600_000, flushAfterRecords: 0, flushAfterBytes: 64 * 1024, idleCloseMs: 5_000, onError: () => undefined });
    for (let index = 0; index < 600; index += 1) {
      await store.record(makeRecord(index, base));
      await stat(directory);
    }
    expect((await store.flush()).flushed).toBeLessThan(600);
    await store.close();
    expect(() => createDurableTraceStore({ directory, flushAfterRecords: -1 })).toThrow(/flushAfterRecords/);
    expect(() => createDurableTraceStore({ directory, flushAfterBytes: 1.5 })).toThrow(/flushAfterBytes/);
  }, 60_000);
});
