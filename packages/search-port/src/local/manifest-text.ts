import { manifestFileEntries, type IndexManifest } from "./index-manifest.js";

/** The manifest as it is written. */
export function manifestText(manifest: IndexManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Bytes of a committed generation: its data files and the manifest. */
export function manifestBytes(manifest: IndexManifest): number {
  let total = Buffer.byteLength(manifestText(manifest), "utf8");
  for (const entry of manifestFileEntries(manifest)) total += entry.bytes;
  return total;
}
