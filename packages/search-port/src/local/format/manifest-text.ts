import { createHash } from "node:crypto";
import { manifestFileEntries, type IndexManifest } from "./index-manifest.js";

/** The manifest as it is written: its fields, then the checksum of them (`manifestChecksum`). */
export function manifestText(manifest: IndexManifest): string {
  const { checksum: _, ...fields } = manifest;
  return `${JSON.stringify({ ...fields, checksum: manifestChecksum(fields) }, null, 2)}\n`;
}

/** The SHA-256 (hex) of a manifest's fields, the checksum left out, in the order they are written. */
export function manifestChecksum(fields: object): string {
  const { checksum: _, ...rest } = fields as { checksum?: unknown };
  return createHash("sha256").update(JSON.stringify(rest)).digest("hex");
}

/** Bytes of a committed generation: its data files and the manifest. */
export function manifestBytes(manifest: IndexManifest): number {
  let total = Buffer.byteLength(manifestText(manifest), "utf8");
  for (const entry of manifestFileEntries(manifest)) total += entry.bytes;
  return total;
}
