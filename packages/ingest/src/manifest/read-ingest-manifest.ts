import { readFile } from "node:fs/promises";
import { errorMessage } from "@lookup-knowledge/core";
import { IngestError } from "../ingest-error.js";
import type { IngestManifest } from "./ingest-manifest.js";
import { ingestManifestPath } from "./ingest-manifest-file.js";
import { ManifestIssue, checkIngestManifest } from "./check-ingest-manifest.js";

/**
 * Reads `ingest-manifest.json` from the data directory. Resolves to `undefined` when the
 * file does not exist; throws `IngestError` (code `invalid_ingest_manifest`, naming the
 * path) when it cannot be read or is not a valid manifest.
 */
export async function readIngestManifest(directory: string): Promise<IngestManifest | undefined> {
  const path = ingestManifestPath(directory);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new IngestError({
      code: "invalid_ingest_manifest",
      path,
      reason: `Cannot read the ingest manifest (${errorMessage(cause)})`,
      cause,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new IngestError({
      code: "invalid_ingest_manifest",
      path,
      reason: `The ingest manifest is not valid JSON (${errorMessage(cause)}); delete it to re-ingest everything`,
      cause,
    });
  }
  try {
    return checkIngestManifest(value);
  } catch (error) {
    if (!(error instanceof ManifestIssue)) throw error;
    const where = error.where.length === 0 ? "(root)" : error.where.join(".");
    throw new IngestError({
      code: "invalid_ingest_manifest",
      path,
      reason: `The ingest manifest is invalid at ${where} (${error.message}); delete it to re-ingest everything`,
    });
  }
}
