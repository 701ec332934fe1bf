import { mkdtemp, rm } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "./test/built-cli.js";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";

// Issue 36 item 5: the bin's command line runs from dist/bundle/command-line.cjs, and its `query`
// from dist/bundle/query-path.cjs, each under a V8 code cache written after a run (code-cached-module.ts). The cache may only make a query start faster: its
// hits are those of the unbundled command, which has no cache. (A stale or damaged cache is
// proved unused in code-cached-module.test.ts, on a file of its own: other test files run the
// bin's queries at the same time, and one of them would replace a damaged cache here.)
const unbundledCli = join(dirname(builtCli), "..", "main.js");
// Prints what became of the cache, from the channel the loader announces its loads on.
const reportCache = `data:text/javascript,import { subscribe } from "node:diagnostics_channel"; subscribe("lookup-knowledge:code-cached-module", ({ file, cache }) => process.stderr.write("code cache: " + file.split("/").pop() + " " + cache + "\\n"));`;

describe("issue 36 item 5: the bin's query path under a V8 code cache", () => {
  let cwd: string;
  const query = (cli = builtCli) => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const run = spawnSync(
      process.execPath,
      ["--import", reportCache, cli, "query", "--json", "Who can issue a refund for a paid invoice?"],
      {
        cwd,
        encoding: "utf8",
        env: { ...environment, NO_COLOR: "1" },
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const { evidenceBlocks } = JSON.parse(run.stdout) as {
      evidenceBlocks: { evidenceKey: string; score: number; rankScore: number; content: string }[];
    };
    const hits = JSON.stringify(
      evidenceBlocks.map(({ evidenceKey, score, rankScore, content }) => [evidenceKey, score, rankScore, content]),
    );
    const caches = Object.fromEntries([...run.stderr.matchAll(/code cache: (\S+) (\w+)/g)].map(([, file, cache]) => [file, cache]));
    return { caches, hits };
  };
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-code-cache-"));
    expect((await runLookupKnowledge(cwd, "ingest", "--no-progress", exampleKnowledgeBase)).code).toBe(0);
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("a query writes the caches of the command line and the query path, the next one uses both, and the hits are those of the unbundled command", () => {
    const first = query();
    expect(Object.keys(first.caches)).toEqual(["command-line.cjs", "query-path.cjs"]);
    for (const cache of Object.values(first.caches)) expect(["absent", "mismatched", "rejected", "untrusted", "used"]).toContain(cache);
    const second = query();
    expect(second.caches).toEqual({ "command-line.cjs": "used", "query-path.cjs": "used" });
    const unbundled = query(unbundledCli);
    expect(unbundled.caches).toEqual({});
    expect(first.hits).toBe(unbundled.hits);
    expect(second.hits).toBe(unbundled.hits);
  });
});
