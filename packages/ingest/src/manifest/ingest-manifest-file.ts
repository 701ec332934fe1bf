import { join } from "node:path";

/** The manifest's file name in the data directory. */
export const ingestManifestFileName = "ingest-manifest.json";

/** The manifest's path in a data directory. */
export function ingestManifestPath(directory: string): string {
  return join(directory, ingestManifestFileName);
}
