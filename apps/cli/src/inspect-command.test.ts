import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoQuestions } from "./demo/run-demo.js";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";
import { cliEnvironment, cliPath } from "./test/spawn-mcp-server.js";

const demo = fileURLToPath(new URL("../dist/demo/main.js", import.meta.url));

/** `lookup-knowledge ...args` running until stopped, with the URL it said it serves. */
async function spawnInspector(cwd: string, args: string[]): Promise<{ url: string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [cliPath, ...args], { cwd, env: cliEnvironment(), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 30 s; stderr: ${stderr}`)), 30_000);
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      const match = /serving (http:\/\/\S+\/) /.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before serving; stderr: ${stderr}`));
    });
  });
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

describe("lookup-knowledge inspect", () => {
  let folder: string;
  let data: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-inspect-"));
    data = join(folder, ".lookup-knowledge");
    // What `pnpm start` does, into a temp data folder: ingest the example base, run the demo's lookups.
    const { execFile } = await import("node:child_process");
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, [demo, exampleKnowledgeBase, data], { cwd: folder, env: cliEnvironment() }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  }, 120_000);
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("issue 13: after the demo, `inspect` serves the page on 127.0.0.1 and its Traces API lists the demo lookups; SIGTERM stops it", async () => {
    const server = await spawnInspector(folder, ["--data", data, "inspect", "--port", "0"]);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const traces = (await (await fetch(new URL("/api/traces", server.url))).json()) as { records: Array<{ query: string }> };
      expect(traces.records.map((record) => record.query)).toEqual(demoQuestions.map(([, question]) => question).reverse());
      const page = await fetch(server.url);
      expect([page.status, (await page.text()).includes('<div id="app">')]).toEqual([200, true]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("issue 13: `inspect` started before the first lookup shows the lookups recorded later, without a restart; a bad --port is refused", async () => {
    const fresh = join(folder, "fresh");
    expect(await runLookupKnowledge(folder, "--data", fresh, "ingest", "--no-progress", exampleKnowledgeBase)).toMatchObject({ code: 0 });
    const server = await spawnInspector(folder, ["--data", fresh, "inspect", "--port", "0"]);
    try {
      const info = async () => ((await (await fetch(new URL("/api/info", server.url))).json()) as { traces: boolean }).traces;
      expect(await info()).toBe(false);
      const before = await fetch(new URL("/api/traces", server.url));
      expect([before.status, ((await before.json()) as { error: { code: string } }).error.code]).toEqual([404, "traces_unavailable"]);
      // A lookup in another process, on the same data folder, while the page is served.
      const question = "Who can issue a refund for a paid invoice?";
      expect(await runLookupKnowledge(folder, "--data", fresh, "query", question)).toMatchObject({ code: 0 });
      const after = await fetch(new URL("/api/traces", server.url));
      expect(after.status).toBe(200);
      const listed = (await after.json()) as { records: Array<{ id: string; query: string }> };
      expect(listed.records.map((record) => record.query)).toEqual([question]);
      expect(await info()).toBe(true);
      const one = await fetch(new URL(`/api/traces/${listed.records[0]?.id}`, server.url));
      expect([one.status, ((await one.json()) as { query: string }).query]).toEqual([200, question]);
      // The store stays open: a second lookup shows up in the same server too.
      expect(await runLookupKnowledge(folder, "--data", fresh, "query", "What is the boiling point of ethanol?")).toMatchObject({
        code: 0,
      });
      const again = (await (await fetch(new URL("/api/traces", server.url))).json()) as { records: unknown[] };
      expect(again.records).toHaveLength(2);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const bad = await runLookupKnowledge(folder, "--data", fresh, "inspect", "--port", "http");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port must be a whole number from 0 to 65535, got "http"');
  });

  it("issue 13: `inspect --port N` on a port in use fails at once with a clear error naming host and port and saying to pick another --port", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const busy = await runLookupKnowledge(folder, "--data", data, "inspect", "--port", String(port));
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(`lookup-knowledge: Cannot serve the inspector on 127.0.0.1:${port}: port ${port} is already in use`);
      expect(busy.stderr).toContain("--port");
      expect(busy.stderr).not.toMatch(/EADDRINUSE|unexpected error|\n\s+at /);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });
});
