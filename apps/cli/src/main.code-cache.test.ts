import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "./test/built-cli.js";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";

// Issue 36 item 5: the bin's `query` runs from dist/bundle/query-path.cjs under a V8 code cache
// written after a run (code-cached-module.ts). The cache may only make a query start faster:
// with it, without it, and with it damaged, the output is the same.
const cacheFile = join(dirname(builtCli), "query-path.cjs.cache");
// Prints what became of the cache, from the channel the loader announces its loads on.
const reportCache = `data:text/javascript,import { subscribe } from "node:diagnostics_channel"; subscribe("lookup-knowledge:code-cached-module", ({ cache }) => process.stderr.write("code cache: " + cache + "\\n"));`;

describe("issue 36 item 5: the bin's query path under a V8 code cache", () => {
  let cwd: string;
  const query = () => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const run = spawnSync(
      process.execPath,
      ["--import", reportCache, builtCli, "query", "--json", "Who can issue a refund for a paid invoice?"],
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

  it("a query writes the cache, the next one uses it, a damaged one is not used and is replaced, with the same hits each time", () => {
    const first = query();
    expect(["absent", "mismatched", "rejected", "used"]).toContain(first.cache);
    const second = query();
    expect(second.cache).toBe("used");
    const cache = readFileSync(cacheFile);
    cache.writeUInt8(cache.readUInt8(cache.length - 1) ^ 0xff, cache.length - 1);
    writeFileSync(cacheFile, cache);
    const damaged = query();
    expect(damaged.cache).toBe("mismatched");
    expect(query().cache).toBe("used");
    expect(second.hits).toBe(first.hits);
    expect(damaged.hits).toBe(first.hits);
  });
});
