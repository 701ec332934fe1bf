import { mkdir } from "node:fs/promises";
import type { IngestManifest } from "./ingest-manifest.js";
import { ingestManifestPath } from "./ingest-manifest-file.js";
import { writeFileAtomically } from "./write-file-atomically.js";

/**
 * Writes `ingest-manifest.json` into the data directory (created if missing), atomically
 * (`writeFileAtomically`): a crash leaves the old or the new manifest, never half.
 */
export async function writeIngestManifest(directory: string, manifest: IngestManifest): Promise<void> {
  await mkdir(directory, { recursive: true });
  await writeFileAtomically(ingestManifestPath(directory), [`${JSON.stringify(manifest, null, 1)}\n`]);
}
