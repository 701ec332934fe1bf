import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { datasetsDirectory, needsDatasets, skipWithoutDatasets } from "../test/datasets.js";
import { createRecordingKnowledgeWriter } from "../test/recording-knowledge-writer.js";
import type * as Ingest from "./index.js";
import { createParsePool } from "./parse-pool.js";
import { resolveIngestOptions } from "./resolve-ingest-options.js";

const sourceDirectory = fileURLToPath(new URL(".", import.meta.url));
const builtIndex = new URL("../dist/index.js", import.meta.url);
const buildInfo = fileURLToPath(new URL("../dist/.tsbuildinfo", import.meta.url));

/** Whether `dist` was built after the last change to the sources (`tsc -b` ran), so it tests this code. */
function builtIsFresh(): boolean {
  if (!existsSync(fileURLToPath(builtIndex)) || !existsSync(buildInfo)) return false;
  const built = statSync(buildInfo).mtimeMs;
  return readdirSync(sourceDirectory)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .every((name) => statSync(join(sourceDirectory, name)).mtimeMs <= built);
}

describe("createParsePool", () => {
  it("is unavailable when running from the TypeScript sources (the caller then parses in-thread)", () => {
    expect(createParsePool(2, resolveIngestOptions(undefined))).toBeUndefined();
  });

  // Worker threads need the compiled JavaScript: this runs against `dist` after `tsc -b`.
  it.skipIf(!builtIsFresh() || skipWithoutDatasets)(needsDatasets("parses on worker threads exactly as on the calling thread (built package)"), async () => {
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
  }, 60_000);
});
