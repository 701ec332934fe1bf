import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRecord, window } from "../../test/make-record.js";
import { createDurableTraceStore, type DurableTraceStoreOptions } from "../durable/create-durable-trace-store.js";
import type { DurableTraceStore } from "../durable/durable-trace-store.js";
import { openTraceDatabase } from "../database/open-trace-database.js";
import { createTraceSpool } from "./create-trace-spool.js";
import { hostIdentity } from "./spool-segment.js";

const distIndex = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
const run = promisify(execFile);

/** Why `unshare --pid --fork` cannot be used here, or undefined when it can. */
function unshareUnavailable(): string | undefined {
  const probe = spawnSync("unshare", ["--pid", "--fork", "true"], { encoding: "utf8" });
  if (probe.error) return `unshare is not available (${probe.error.message})`;
  if (probe.status !== 0) return `unshare --pid --fork is not permitted here (${(probe.stderr || `exit ${probe.status}`).trim()})`;
  return undefined;
}

function segmentFiles(directory: string): string[] {
  return readdirSync(join(directory, "spool")).filter((entry) => /^\d{15}-.*\.(open|jsonl)$/.test(entry));
}

describe("flushing a spool shared across hosts and PID namespaces", () => {
  let root: string;
  let databaseDirectory: string;
  const stores: DurableTraceStore[] = [];
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "trace-spool-flush-"));
    databaseDirectory = join(root, "database");
    await (await openTraceDatabase({ directory: databaseDirectory })).close();
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    rmSync(root, { recursive: true, force: true });
  });

  function open(directory: string, options: Partial<DurableTraceStoreOptions> = {}): DurableTraceStore {
    const store = createDurableTraceStore({
      directory,
      databaseDirectory,
      flushIntervalMs: 0,
      idleCloseMs: 0,
      onError: () => undefined,
      ...options,
    });
    stores.push(store);
    return store;
  }

  const unavailable = unshareUnavailable();
  if (unavailable) console.warn(`Skipping the PID namespace spool test: ${unavailable}.`);
  it.skipIf(unavailable !== undefined)(
    `R29: a flusher in another PID namespace (unshare --pid --fork) leaves a live writer's segment alone; nothing is lost${unavailable ? ` (skipped: ${unavailable})` : ""}`,
    async () => {
      const directory = mkdtempSync(join(root, "traces-"));
      const { base, since, until } = window(2301);
      const writer = createTraceSpool({ directory });
      for (let index = 0; index < 10; index += 1) writer.append(makeRecord(index, base));
      const [segment] = segmentFiles(directory);
      // A flusher whose pid namespace has no process with this test's pid (it is PID 1 there).
      const script = `
        const { createDurableTraceStore } = await import(${JSON.stringify(distIndex)});
        const store = createDurableTraceStore({ directory: process.env.DIRECTORY, databaseDirectory: process.env.DATABASE, flushIntervalMs: 0 });
        const report = await store.flush();
        await store.close();
        console.log(JSON.stringify({ pid: process.pid, report }));`;
      const { stdout } = await run("unshare", ["--pid", "--fork", process.execPath, "--input-type=module", "-e", script], {
        env: { ...process.env, DIRECTORY: directory, DATABASE: databaseDirectory },
      });
      const flushed = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as {
        pid: number;
        report: { flushed: number; segmentsRemoved: number };
      };
      expect(flushed.pid).toBe(1);
      expect(flushed.report).toMatchObject({ flushed: 10, segmentsRemoved: 0 });
      expect(segmentFiles(directory)).toEqual([segment]);
      // The writer goes on: its lines must reach the database too.
      for (let index = 10; index < 20; index += 1) writer.append(makeRecord(index, base));
      await writer.close();
      const store = open(directory);
      const records = await store.list({ since, until, limit: 100 });
      expect(records.map((record) => record.id).sort()).toEqual(Array.from({ length: 20 }, (_, index) => makeRecord(index, base).id));
      expect(segmentFiles(directory)).toEqual([]);
    },
    60_000,
  );

  it("R29: an open segment of another host is kept while it changes, and taken as finished once idle past foreignWriterIdleMs", async () => {
    const directory = mkdtempSync(join(root, "traces-"));
    const { base, since, until } = window(2302);
    const otherHost = hostIdentity === "0badc0de" ? "0badf00d" : "0badc0de";
    const name = `${String(Date.now()).padStart(15, "0")}-1-${otherHost}-1234abcd-000001.open`;
    const file = join(directory, "spool", name);
    mkdirSync(join(directory, "spool"), { recursive: true });
    writeFileSync(file, [0, 1, 2].map((index) => `${JSON.stringify(makeRecord(index, base))}\n`).join(""));
    const store = open(directory, { foreignWriterIdleMs: 60_000 });
    expect(await store.flush()).toMatchObject({ flushed: 3, segmentsRemoved: 0 });
    expect(existsSync(file)).toBe(true);
    const idle = new Date(Date.now() - 120_000);
    utimesSync(file, idle, idle);
    expect(await store.flush()).toMatchObject({ flushed: 0, segmentsRemoved: 1 });
    expect(existsSync(file)).toBe(false);
    expect(await store.list({ since, until })).toHaveLength(3);
  });

  it("R29: a segment named the older way (no host) is this host's: kept while its process runs, taken once it is gone", async () => {
    const directory = mkdtempSync(join(root, "traces-"));
    const { base, since, until } = window(2303);
    mkdirSync(join(directory, "spool"), { recursive: true });
    const live = join(directory, "spool", `${String(Date.now()).padStart(15, "0")}-${process.ppid}-ab12-000001.open`);
    const dead = join(directory, "spool", `${String(Date.now()).padStart(15, "0")}-999999999-ab12-000002.open`);
    writeFileSync(live, `${JSON.stringify(makeRecord(0, base))}\n`);
    writeFileSync(dead, `${JSON.stringify(makeRecord(1, base))}\n`);
    const store = open(directory);
    expect(await store.flush()).toMatchObject({ flushed: 2, segmentsRemoved: 1 });
    expect(existsSync(live)).toBe(true);
    expect(existsSync(dead)).toBe(false);
    expect(await store.list({ since, until })).toHaveLength(2);
  });
});
