import { randomUUID } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import type { IngestManifest } from "./ingest-manifest.js";
import { ingestManifestPath } from "./ingest-manifest-file.js";

/**
 * Writes `ingest-manifest.json` into the data directory (created if missing), atomically:
 * the JSON goes to a temporary file in the same directory, is flushed to disk, then
 * renamed over the old manifest, so a crash leaves the old or the new one, never half.
 */
export async function writeIngestManifest(directory: string, manifest: IngestManifest): Promise<void> {
  await mkdir(directory, { recursive: true });
  const path = ingestManifestPath(directory);
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  try {
    const handle = await open(temporary, "w");
    try {
      await handle.writeFile(`${JSON.stringify(manifest, null, 1)}\n`, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

/** Flushes the directory entry of the rename; not every platform allows it, so failures are ignored. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort (Windows cannot open a directory for syncing).
  }
}
