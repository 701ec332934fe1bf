import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableTraceStore } from "./create-durable-trace-store.js";
import { stopTraceServer } from "../database/server/stop-trace-server.js";
import { makeRecord } from "../../test/make-record.js";

// Issue 33, items 4 and 5: one data folder used by several processes at once (an MCP server
// recording lookups, the inspector and the CLI reading traces), and what opening the
// embedded database costs a host process.

const distIndex = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
// The server these tests start stays up between their phases (the test preset makes it leave
// after 2 s); afterAll stops it.
process.env["LOOKUP_KNOWLEDGE_TRACE_SERVER_IDLE_MS"] = "60000";

/** Runs `body` (an async module body with `createDurableTraceStore`, `makeRecord` and `DIRECTORY` in scope) in a child process; resolves to its last stdout line, parsed. */
function runChild(body: string, environment: Record<string, string>): Promise<Record<string, unknown>> {
  const script = `
    const { createDurableTraceStore } = await import(${JSON.stringify(distIndex)});
    const DIRECTORY = process.env.DIRECTORY;
    const TEMPLATE = JSON.parse(process.env.TEMPLATE);
    const makeRecord = (index) => ({ ...TEMPLATE, id: process.env.PREFIX + "-" + index, createdAt: new Date(Date.parse(TEMPLATE.createdAt) + index).toISOString() });
    ${body}`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    env: { ...process.env, ...environment },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let errors = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    output += text;
  });
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    errors += text;
  });
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => {
      const last = output.trim().split("\n").at(-1) ?? "";
      if (code !== 0) reject(new Error(`child exited ${code}: ${errors.trim()}`));
      else resolve(JSON.parse(last) as Record<string, unknown>);
    });
  });
}

describe("one embedded trace database, many processes", () => {
  let root: string;
  let directory: string;
  const template = JSON.stringify(makeRecord(0, new Date("2026-03-01T00:00:00Z")));
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "trace-processes-"));
    directory = join(root, "traces");
  });
  afterAll(async () => {
    await stopTraceServer(join(directory, "database"));
    rmSync(root, { recursive: true, force: true });
  });

  it("issue 33: a writer process records and flushes while two reader processes list and count: no read waits on another process, nothing fails", async () => {
    // The database exists and is served before the processes start, so every read below is timed whole.
    const opened = createDurableTraceStore({ directory, flushIntervalMs: 0 });
    expect(await opened.count()).toBe(0);
    await opened.close();
    const start = String(Date.now() + 1500);
    const writer = runChild(
      `
      const errors = [];
      const store = createDurableTraceStore({ directory: DIRECTORY, flushIntervalMs: 20, onError: (error) => errors.push(error.message) });
      while (Date.now() < Number(process.env.START)) await new Promise((done) => setTimeout(done, 10));
      for (let index = 0; index < 600; index += 1) {
        store.append(makeRecord(index));
        if (index % 20 === 19) await new Promise((done) => setTimeout(done, 100));
      }
      await store.close();
      console.log(JSON.stringify({ written: 600, errors }));`,
      { DIRECTORY: directory, TEMPLATE: template, PREFIX: "writer", START: start },
    );
    const reader = (prefix: string) =>
      runChild(
        `
        const errors = [];
        const store = createDurableTraceStore({ directory: DIRECTORY, flushIntervalMs: 0 });
        // Connected before the window opens (the first read may start the trace server, seconds
        // on a loaded machine), so the window times reads beside the writer, not a start-up.
        try {
          await store.count();
        } catch (error) {
          errors.push(error.message);
        }
        while (Date.now() < Number(process.env.START)) await new Promise((done) => setTimeout(done, 10));
        let reads = 0, slowest = 0;
        const until = Date.now() + 5000;
        while (Date.now() < until) {
          const started = performance.now();
          try {
            await store.list({ limit: 20 });
            await store.count();
            reads += 1;
          } catch (error) {
            errors.push(error.message);
          }
          slowest = Math.max(slowest, performance.now() - started);
        }
        await store.close();
        console.log(JSON.stringify({ errors, reads, slowest }));`,
        { DIRECTORY: directory, TEMPLATE: template, PREFIX: prefix, START: start },
      );
    const [written, first, second] = await Promise.all([writer, reader("a"), reader("b")]);
    expect(written).toEqual({ written: 600, errors: [] });
    for (const read of [first, second]) {
      expect(read["errors"]).toEqual([]);
      expect(read["reads"] as number).toBeGreaterThan(10);
      // Not a speed figure: with one process holding the folder, the other reader waited for
      // the holder's whole run (5 s and more) or failed after the lock wait (15 s). The bound
      // sits below that, with room for a loaded machine (3.9 s was seen once under load, when
      // the window's first read still opened the connection).
      expect(read["slowest"] as number).toBeLessThan(4_500);
    }
    console.log(
      `issue 33 item 4: reads while a writer flushes, slowest: ${Math.round(first["slowest"] as number)} / ${Math.round(second["slowest"] as number)} ms`,
    );
    const store = createDurableTraceStore({ directory, flushIntervalMs: 0 });
    try {
      expect(await store.count()).toBe(600);
    } finally {
      await store.close();
    }
  }, 120_000);

  it("issue 33: opening the embedded trace database costs a host process less than 100 MB of memory", async () => {
    const measured = await runChild(
      `
      const before = process.memoryUsage().rss;
      const store = createDurableTraceStore({ directory: DIRECTORY, flushIntervalMs: 0 });
      for (let index = 0; index < 100; index += 1) store.append(makeRecord(index));
      await store.flush();
      const count = await store.count();
      const after = process.memoryUsage().rss;
      await store.close();
      console.log(JSON.stringify({ count, grewBy: after - before }));`,
      { DIRECTORY: join(root, "memory"), TEMPLATE: template, PREFIX: "memory" },
    );
    expect(measured["count"]).toBe(100);
    console.log(`issue 33 item 5: the host process grew by ${Math.round((measured["grewBy"] as number) / 1e6)} MB`);
    expect(measured["grewBy"] as number).toBeLessThan(100 * 1024 * 1024);
    await stopTraceServer(join(root, "memory", "database"));
  }, 120_000);
});
