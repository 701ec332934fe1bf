import { mkdtemp, rm } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "./test/built-cli.js";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";

// Issue 36 item 5: the bin's `query` runs from dist/bundle/query-path.cjs under a V8 code cache
// written after a run (code-cached-module.ts). The cache may only make a query start faster: its
// hits are those of the unbundled command, which has no cache. (A stale or damaged cache is
// proved unused in code-cached-module.test.ts, on a file of its own: other test files run the
// bin's queries at the same time, and one of them would replace a damaged cache here.)
const unbundledCli = join(dirname(builtCli), "..", "main.js");
// Prints what became of the cache, from the channel the loader announces its loads on.
const reportCache = `data:text/javascript,import { subscribe } from "node:diagnostics_channel"; subscribe("lookup-knowledge:code-cached-module", ({ cache }) => process.stderr.write("code cache: " + cache + "\\n"));`;

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
    return { cache: /code cache: (\w+)/.exec(run.stderr)?.[1], hits };
  };
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-code-cache-"));
    expect((await runLookupKnowledge(cwd, "ingest", "--no-progress", exampleKnowledgeBase)).code).toBe(0);
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("a query writes the cache, the next one uses it, and the hits are those of the unbundled command", () => {
    const first = query();
    expect(["absent", "mismatched", "rejected", "untrusted", "used"]).toContain(first.cache);
    const second = query();
    expect(second.cache).toBe("used");
    const unbundled = query(unbundledCli);
    expect(unbundled.cache).toBeUndefined();
    expect(first.hits).toBe(unbundled.hits);
    expect(second.hits).toBe(unbundled.hits);
  });
});
