import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { datasetsDirectory, needsDatasets, skipWithoutDatasets } from "../../test/datasets.js";
import { createRecordingKnowledgeWriter } from "../../test/recording-knowledge-writer.js";
import type * as Ingest from "../index.js";
import type * as ParsePoolModule from "./parse-pool.js";
import { createParsePool } from "./parse-pool.js";
import { resolveIngestOptions } from "../options/resolve-ingest-options.js";

const sourceDirectory = fileURLToPath(new URL("..", import.meta.url));
const builtIndex = new URL("../../dist/index.js", import.meta.url);
const buildInfo = fileURLToPath(new URL("../../dist/.tsbuildinfo", import.meta.url));

/** Whether `dist` was built after the last change to the sources (`tsc -b` ran), so it tests this code. */
function builtIsFresh(): boolean {
  if (!existsSync(fileURLToPath(builtIndex)) || !existsSync(buildInfo)) return false;
  const built = statSync(buildInfo).mtimeMs;
  // Every source, in the folders under src too.
  return readdirSync(sourceDirectory, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .every((name) => statSync(join(sourceDirectory, name)).mtimeMs <= built);
}

/** Under CI (turbo builds before it tests) the built-package tests must run: a stale or missing `dist` fails them instead. */
const requireBuilt = (process.env["CI"] ?? "") !== "" && process.env["CI"] !== "false";

/** Skips when `dist` is stale outside CI; under CI, runs and fails with a clear message. */
function builtTest() {
  return it.skipIf(!requireBuilt && !builtIsFresh());
}

function assertBuiltIsFresh(): void {
  if (!builtIsFresh()) {
    throw new Error(
      "packages/ingest/dist is missing or older than src (CI is set, so this test does not skip): run `pnpm turbo run build --filter=@lookup-knowledge/ingest` before the tests",
    );
  }
}

describe("createParsePool", () => {
  it("is unavailable when running from the TypeScript sources (the caller then parses in-thread)", () => {
    expect(createParsePool(2, resolveIngestOptions(undefined))).toBeUndefined();
  });

  // Worker threads need the compiled JavaScript: this runs against `dist` after `tsc -b`.
  it.skipIf(!builtIsFresh() || skipWithoutDatasets)(
    needsDatasets("parses on worker threads exactly as on the calling thread (built package)"),
    async () => {
      const ingest = (await import(builtIndex.href)) as typeof Ingest;
      const root = join(datasetsDirectory, "apisix-docs/docs/en/latest");
      const options = { include: ["plugins/[c-f]*.md"] };
      const data = await mkdtemp(join(tmpdir(), "ingest-pool-"));
      try {
        const inThread = createRecordingKnowledgeWriter();
        const pooled = createRecordingKnowledgeWriter();
        const first = await ingest.ingestFolder({ root, dataDirectory: join(data, "a"), writer: inThread, options, parseWorkers: 1 });
        const second = await ingest.ingestFolder({ root, dataDirectory: join(data, "b"), writer: pooled, options, parseWorkers: 2 });
        expect(first.files).toBeGreaterThanOrEqual(16);
        expect(second.chunksWritten).toBe(first.chunksWritten);
        expect(second.entries).toEqual(first.entries);
        expect([...pooled.records.entries()].sort()).toEqual([...inThread.records.entries()].sort());
      } finally {
        await rm(data, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it.skipIf(!builtIsFresh())(
    "skips a file whose parse exceeds the per-file time limit, saying so, and goes on with the next (built package)",
    async () => {
      const pool = (await import(new URL("../../dist/parse-pool/parse-pool.js", import.meta.url).href)) as typeof ParsePoolModule;
      const parsePool = pool.createParsePool(1, resolveIngestOptions(undefined), {
        timeLimitMs: (length) => (length > 100_000 ? 20 : 30_000),
      });
      expect(parsePool).toBeDefined();
      try {
        const large = "Some words in a paragraph.\n\n".repeat(100_000);
        await expect(parsePool?.parse(large, "large.md")).rejects.toMatchObject({
          code: "invalid_document",
          source: "large.md",
          reason: expect.stringMatching(/^parsing took longer than 0 s, the limit for a file of 2800000 characters$/),
        });
        const small = await parsePool?.parse("# Small\n\nStill parsed.\n", "small.md");
        expect(small?.chunks.map((chunk) => chunk.content)).toEqual(["# Small\n\nStill parsed."]);
      } finally {
        await parsePool?.close();
      }
    },
  );

  builtTest().each([2, 1])(
    "stops within a few seconds (not the half minute of the whole parse) when aborted while a worker parses a large file, parseWorkers %i (built package)",
    async (parseWorkers) => {
      assertBuiltIsFresh();
      const ingest = (await import(builtIndex.href)) as typeof Ingest;
      const base = await mkdtemp(join(tmpdir(), "ingest-abort-"));
      try {
        await mkdir(join(base, "docs"));
        await writeFile(join(base, "docs", "large.md"), "A sentence of a large file, again and again.\n\n".repeat(600_000));
        const controller = new AbortController();
        const started = performance.now();
        setTimeout(() => controller.abort(new Error("stop now")), 500);
        const run = ingest.ingestFolder({
          root: join(base, "docs"),
          dataDirectory: join(base, "data"),
          writer: createRecordingKnowledgeWriter(),
          parseWorkers,
          signal: controller.signal,
        });
        await expect(run).rejects.toThrow("stop now");
        // The whole parse takes 20 s or more; generous for a loaded machine.
        expect(performance.now() - started).toBeLessThan(5_000);
        expect(existsSync(join(base, "data", "ingest-manifest.json"))).toBe(false);
      } finally {
        await rm(base, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
