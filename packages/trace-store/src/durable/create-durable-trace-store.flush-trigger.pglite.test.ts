import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRecord, window } from "../../test/make-record.js";
import { createDurableTraceStore } from "./create-durable-trace-store.js";
import { openTraceDatabase } from "../database/open-trace-database.js";

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

  it("R29: back-to-back lookups that never let the flush timer run still get flushed once flushAfterRecords is passed", async () => {
    const directory = mkdtempSync(join(root, "traces-"));
    // The timer never gets its turn within the test, and the byte trigger is off: only the
    // record count can start a flush.
    const flushAfterRecords = 200;
    const store = createDurableTraceStore({
      directory,
      databaseDirectory,
      flushIntervalMs: 3_600_000,
      flushAfterRecords,
      flushAfterBytes: 0,
      idleCloseMs: 5_000,
      onError: () => undefined,
    });
    const { base, since, until } = window(2601);
    const total = 4000;
    const lineBytes = Buffer.byteLength(`${JSON.stringify(makeRecord(0, base))}\n`);
    let largest = 0;
    for (let index = 0; index < total; index += 1) {
      await store.record(makeRecord(index, base));
      // A lookup's own I/O (a file read) is all the event loop gets between two lookups.
      await stat(directory);
      if (index % 50 === 0) largest = Math.max(largest, spoolBytes(directory));
    }
    // Whatever the machine's speed: a background flush started during the loop (at the
    // latest at record 200) and committed records before close. `flush` waits for it, then
    // flushes the rest; it reads the spool after the background flush did, so the records
    // the background flush read are not its own. Without the count trigger it flushes all.
    const rest = await store.flush();
    console.info(
      `${total} records of ${lineBytes} bytes (${((total * lineBytes) / 1048576).toFixed(1)} MiB): spool at most ${(largest / 1048576).toFixed(2)} MiB during the loop; ${rest.flushed} left for the final flush`,
    );
    expect(rest.flushed).toBeLessThanOrEqual(total - flushAfterRecords);
    // How large the spool grows depends on how fast the database takes the batches (one
    // flush at a time), so it is reported; asserted only is that it never held more than
    // was appended.
    expect(largest).toBeLessThanOrEqual(total * lineBytes);
    expect(await store.count()).toBeGreaterThanOrEqual(total);
    expect(await store.list({ since, until, limit: 1 })).toHaveLength(1);
    await store.close();
  }, 300_000);

  it("R29: flushAfterBytes counts UTF-8 bytes: CJK records that pass it in bytes, not in UTF-16 units, start a flush", async () => {
    const directory = mkdtempSync(join(root, "traces-"));
    const { base } = window(2603);
    const flushAfterBytes = 256 * 1024;
    const cjk = (index: number) => makeRecord(index, base, { query: `返金ポリシーについて教えてください${"漢字".repeat(1500)}${index}` });
    const line = `${JSON.stringify(cjk(0))}\n`;
    const lineBytes = Buffer.byteLength(line);
    // Just enough records to pass the bound in bytes; in UTF-16 units they stay well below it.
    const total = Math.ceil(flushAfterBytes / lineBytes) + 2;
    expect(total * (line.length + 8)).toBeLessThan(flushAfterBytes);
    const store = createDurableTraceStore({
      directory,
      databaseDirectory,
      flushIntervalMs: 3_600_000,
      flushAfterRecords: 0,
      flushAfterBytes,
      idleCloseMs: 5_000,
      onError: () => undefined,
    });
    for (let index = 0; index < total; index += 1) {
      await store.record(cjk(index));
      await stat(directory);
    }
    // The background flush began after the record that passed the bound: `flush` waits for it
    // and finds at most the records appended after that one.
    const rest = await store.flush();
    expect(rest.flushed).toBeLessThan(total - Math.floor(flushAfterBytes / lineBytes) + 1);
    expect(await store.count()).toBeGreaterThanOrEqual(total);
    await store.close();
  }, 300_000);

  it("R29: a flush also starts once flushAfterBytes were appended; both bounds must be whole numbers", async () => {
    const directory = mkdtempSync(join(root, "traces-"));
    const { base } = window(2602);
    const store = createDurableTraceStore({
      directory,
      databaseDirectory,
      flushIntervalMs: 3_600_000,
      flushAfterRecords: 0,
      flushAfterBytes: 64 * 1024,
      idleCloseMs: 5_000,
      onError: () => undefined,
    });
    for (let index = 0; index < 600; index += 1) {
      await store.record(makeRecord(index, base));
      await stat(directory);
    }
    expect((await store.flush()).flushed).toBeLessThan(600);
    await store.close();
    expect(() => createDurableTraceStore({ directory, flushAfterRecords: -1 })).toThrow(/flushAfterRecords/);
    expect(() => createDurableTraceStore({ directory, flushAfterBytes: 1.5 })).toThrow(/flushAfterBytes/);
  }, 300_000);
});
