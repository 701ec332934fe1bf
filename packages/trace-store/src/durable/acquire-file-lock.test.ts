import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireFileLock, defaultLockWaitMs, lockStaleMs } from "./acquire-file-lock.js";
import { stopTraceServer } from "../database/server/stop-trace-server.js";
import { traceSocketDirectory } from "../database/server/trace-socket-directory.js";
import { openTraceDatabase } from "../database/open-trace-database.js";

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

  it("R29: after kill -9 of the trace server holding the embedded database, the next open takes its lock over within the default wait", async () => {
    const directory = join(root, "database");
    const first = await openTraceDatabase({ directory }); // starts the folder's trace server
    await first.close();
    const pid = Number.parseInt(readFileSync(join(traceSocketDirectory(directory), "server.pid"), "utf8"), 10);
    await expect(acquireFileLock(`${directory}.lock`, { waitMs: 300, what: "The test database" })).rejects.toMatchObject({
      code: "trace_store_locked",
    });
    process.kill(pid, "SIGKILL");
    const database = await openTraceDatabase({ directory }); // the default wait: a new server takes the stale lock over
    try {
      expect(await database.count()).toBe(0);
      expect(Number.parseInt(readFileSync(join(traceSocketDirectory(directory), "server.pid"), "utf8"), 10)).not.toBe(pid);
    } finally {
      await database.close();
      await stopTraceServer(directory);
    }
  }, 60_000);
});
