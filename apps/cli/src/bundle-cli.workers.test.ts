import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "./test/built-cli.js";
import { exampleKnowledgeBase } from "./test/run-lookup-knowledge.js";

// Issue 36 item 7: the worker threads the CLI starts (the dense-scan helper, the parse workers)
// load and run when the CLI is the bundled file it ships as (scripts/bundle-cli.mjs), started
// the way a user starts it: `node dist/bundle/main.js ...`. `observe-worker-threads.mjs`,
// loaded before the CLI, reports every worker the process started and what became of it.
const observer = fileURLToPath(new URL("./test/observe-worker-threads.mjs", import.meta.url));
/** search-port's `firstScanHelperRows`: a process's first dense scan of this many rows or more starts the helper thread. */
const firstScanHelperRows = 262_144;
/** The code of the process warning the dense scan gives when it falls back to one thread. */
const oneThreadWarning = "LOOKUP_KNOWLEDGE_DENSE_SCAN_ONE_THREAD";

interface ObservedWorker {
  script: string;
  online: boolean;
  started: boolean | null;
  error: string | null;
  exitCode: number | null;
  messages: number;
}

/** Runs the bundled CLI in `cwd` with the observer; its output and the workers it started. */
function observedCli(cwd: string, args: string[], extraEnvironment: Record<string, string> = {}) {
  const { DATABASE_URL: _ignored, ...environment } = process.env;
  const run = spawnSync(process.execPath, ["--import", observer, builtCli, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...environment, NO_COLOR: "1", ...extraEnvironment },
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(run.status, run.stderr).toBe(0);
  const line = /observed workers: (.*)\n/.exec(run.stderr);
  expect(line, run.stderr).not.toBeNull();
  return { stdout: run.stdout, stderr: run.stderr, workers: JSON.parse(line?.[1] ?? "[]") as ObservedWorker[] };
}

/** The local index's data files by kind (the name after the commit's id) and its manifests with ids and times left out. */
function indexContents(data: string): Map<string, string> {
  const contents = new Map<string, string>();
  const folder = join(data, "index");
  for (const name of readdirSync(folder).sort()) {
    if (name === "manifest.json" || name.endsWith(".lock")) continue;
    contents.set(name.replace(/^[0-9]+-[0-9a-f]+\./, ""), readFileSync(join(folder, name)).toString("base64"));
  }
  for (const file of ["index/manifest.json", "ingest-manifest.json"]) {
    const json = JSON.stringify(JSON.parse(readFileSync(join(data, file), "utf8")), (key, value) =>
      /^(id|commitId|committedAt|checksum|ingestedAt|createdAt|updatedAt)$/i.test(key) && typeof value !== "object" ? "-" : value,
    );
    contents.set(file, json.replace(/[0-9]{8}-[0-9a-f]{16}/g, "<commit>"));
  }
  return contents;
}

describe("issue 36 item 7: the bundled CLI's worker threads run", () => {
  let cwd: string;
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), "lookup-knowledge-cli-workers-"));
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it("a query over more than firstScanHelperRows chunks starts the dense-scan helper, whose code loads and runs (no fall-back to one thread)", async () => {
    // 264,000 one-line sections: past the rows at which a process's first scan starts the helper.
    const tree = join(cwd, "many-sections");
    await mkdir(tree);
    for (let file = 0; file < 66; file += 1) {
      const sections = Array.from(
        { length: 4000 },
        (_, index) => `## S${index}\n\nWidget ${index} rotates w${((file * 4000 + index) * 7919) % 100003}.\n`,
      );
      writeFileSync(join(tree, `f${file}.md`), `# File ${file}\n\n${sections.join("\n")}`);
    }
    const ingest = observedCli(cwd, ["--data", "many", "ingest", "--no-progress", tree]);
    const chunks = Number(/chunks +(\d+) written/.exec(ingest.stdout)?.[1]);
    expect(chunks).toBeGreaterThanOrEqual(firstScanHelperRows);

    const query = observedCli(cwd, ["--data", "many", "query", "--json", "widget rotates w123"]);
    expect((JSON.parse(query.stdout) as { found: boolean }).found).toBe(true);
    expect(query.stderr).not.toContain(oneThreadWarning);
    const helpers = query.workers.filter((worker) => worker.script === "eval");
    expect(helpers.length, query.stderr).toBe(1);
    expect(helpers[0]).toMatchObject({ started: true, error: null });
  }, 300_000);

  it("an ingest with parse workers (the default on a machine with idle cores) runs them and writes the same index as without", () => {
    const withWorkers = observedCli(cwd, ["--data", "with-workers", "ingest", "--no-progress", exampleKnowledgeBase], {
      LOOKUP_KNOWLEDGE_TEST_CORES: "8",
    });
    const parseWorkers = withWorkers.workers.filter((worker) => worker.script.endsWith("/parse-worker.js"));
    expect(parseWorkers.length, withWorkers.stderr).toBeGreaterThan(1);
    for (const worker of parseWorkers) expect(worker).toMatchObject({ online: true, error: null });
    // Every file of the knowledge base (31) was parsed on a worker: one answer each.
    expect(parseWorkers.reduce((total, worker) => total + worker.messages, 0)).toBeGreaterThanOrEqual(31);

    const alone = observedCli(cwd, ["--data", "alone", "ingest", "--no-progress", exampleKnowledgeBase], {
      LOOKUP_KNOWLEDGE_TEST_CORES: "1",
    });
    expect(alone.workers).toEqual([]);
    expect(indexContents(join(cwd, "with-workers"))).toEqual(indexContents(join(cwd, "alone")));
  }, 120_000);

  it("a Chinese ingest and query: jieba's dictionary and the embedder's word table are found from the bundle", () => {
    const ingest = observedCli(cwd, ["--data", "chinese", "ingest", "--no-progress", join(exampleKnowledgeBase, "zh")]);
    expect(ingest.stderr).not.toMatch(/jieba|error/i);
    const query = observedCli(cwd, ["--data", "chinese", "query", "--json", "如何为已付款的发票申请退款？"]);
    const result = JSON.parse(query.stdout) as { found: boolean; evidenceBlocks: { source: string }[] };
    expect(result.found).toBe(true);
    expect(result.evidenceBlocks[0]?.source).toBe("billing/refunds.md");
  });
});
