import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IngestError } from "../ingest-error.js";
import type { IngestManifest } from "./ingest-manifest.js";
import { readIngestManifest } from "./read-ingest-manifest.js";
import { writeIngestManifest } from "./write-ingest-manifest.js";

const manifest: IngestManifest = {
  version: 1,
  optionsHash: "options",
  documents: {
    "plugins/limit-req": {
      source: "plugins/limit-req.md",
      hash: "bytes",
      chunkCount: 4,
      entry: {
        id: "plugins/limit-req",
        source: "plugins/limit-req.md",
        title: "Rate limits",
        keywords: [],
        domain: "plugins",
        entities: [],
      },
    },
  },
};

describe("readIngestManifest / writeIngestManifest", () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "ingest-manifest-"));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("reads nothing when there is no manifest yet", async () => {
    await expect(readIngestManifest(directory)).resolves.toBeUndefined();
    await expect(readIngestManifest(join(directory, "missing"))).resolves.toBeUndefined();
  });

  it("writes and reads back a manifest, creating the directory, leaving no temporary file", async () => {
    const nested = join(directory, "data", "store");
    await writeIngestManifest(nested, manifest);
    await expect(readIngestManifest(nested)).resolves.toEqual(manifest);
    expect(await readdir(nested)).toEqual(["ingest-manifest.json"]);
    await writeIngestManifest(nested, { ...manifest, documents: {} });
    await expect(readIngestManifest(nested)).resolves.toEqual({ ...manifest, documents: {} });
    expect(await readdir(nested)).toEqual(["ingest-manifest.json"]);
  });

  it("refuses a corrupt manifest with an error naming its path", async () => {
    const path = join(directory, "ingest-manifest.json");
    await writeFile(path, "{ not json");
    const error = await readIngestManifest(directory).catch((caught: unknown) => caught);
    expect(IngestError.isInstance(error)).toBe(true);
    expect((error as IngestError).code).toBe("invalid_ingest_manifest");
    expect((error as IngestError).message).toContain(path);
    await writeFile(path, JSON.stringify({ version: 2, optionsHash: "x", documents: {} }));
    await expect(readIngestManifest(directory)).rejects.toThrow(/invalid at version/);
    await writeFile(path, JSON.stringify({ version: 1, optionsHash: "x", documents: { a: { source: "a.md" } } }));
    await expect(readIngestManifest(directory)).rejects.toThrow(/invalid at documents\.a\.hash/);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ version: 1 });
  });
});
