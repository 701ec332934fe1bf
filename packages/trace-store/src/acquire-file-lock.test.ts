import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireFileLock, defaultLockWaitMs, lockStaleMs } from "./acquire-file-lock.js";
import { openTraceDatabase } from "./database/open-trace-database.js";

const distIndex = fileURLToPath(new URL("../dist/index.js", import.meta.url));

/** A child process that opens the embedded database `directory` (taking its lock), says so, and waits to be killed. */
async function holdDatabase(directory: string): Promise<{ kill(): Promise<void> }> {
  const script = `
    const { openTraceDatabase } = await import(${JSON.stringify(distIndex)});
    await openTraceDatabase({ directory: process.env.DIRECTORY });
    console.log("holding");
    setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    env: { ...process.env, DIRECTORY: directory },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString("utf8").includes("holding")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`the holder exited (${code}) before holding the database`)));
  });
  return {
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

describe("acquireFileLock", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "trace-lock-"));
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it("R29: a lock goes stale sooner than a waiter gives up", () => {
    expect(lockStaleMs).toBeLessThan(defaultLockWaitMs);
  });

  it("R29: after kill -9 of the process holding the embedded database, the next open takes its lock over within the default wait", async () => {
    const directory = join(root, "database");
    await (await openTraceDatabase({ directory })).close(); // created here; the holder only opens it
    const holder = await holdDatabase(directory);
    await expect(acquireFileLock(`${directory}.lock`, { waitMs: 300, what: "The test database" })).rejects.toMatchObject({
      code: "trace_store_locked",
    });
    await holder.kill();
    const database = await openTraceDatabase({ directory }); // the default wait
    try {
      expect(await database.count()).toBe(0);
    } finally {
      await database.close();
    }
  }, 60_000);
});
