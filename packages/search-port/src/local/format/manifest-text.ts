import { createHash } from "node:crypto";
import { storedFileEntries } from "./segmented-manifest.js";
import type { StoredManifest } from "./segmented-manifest.js";

/** The manifest as it is written: its fields, then the checksum of them (`manifestChecksum`). */
export function manifestText(manifest: StoredManifest): string {
  const { checksum: _, ...fields } = manifest;
  return `${JSON.stringify({ ...fields, checksum: manifestChecksum(fields) }, null, 2)}\n`;
}

/** The SHA-256 (hex) of a manifest's fields, the checksum left out, in the order they are written. */
export function manifestChecksum(fields: object): string {
  const { checksum: _, ...rest } = fields as { checksum?: unknown };
  return createHash("sha256").update(JSON.stringify(rest)).digest("hex");
}

/** Bytes of a commit: its data files and the manifest. */
export function manifestBytes(manifest: StoredManifest): number {
  let total = Buffer.byteLength(manifestText(manifest), "utf8");
  for (const entry of storedFileEntries(manifest)) total += entry.bytes;
  return total;
}
