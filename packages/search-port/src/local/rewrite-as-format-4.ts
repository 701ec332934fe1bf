import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { blockCount, checksumBytes } from "./block-checksums.js";
import type { IndexManifest } from "./index-manifest.js";

/**
 * Test helper: rewrites the committed format-5 index in `directory` as format 4 left it (no
 * bounds file, so no checksums of it at the end of the `blocks` file), so tests can prove
 * that such indexes are still read, with the same results, and continued. Not exported
 * from the package.
 */
export function rewriteAsFormat4(directory: string): void {
  const path = join(directory, "manifest.json");
  const manifest = JSON.parse(readFileSync(path, "utf8")) as IndexManifest;
  const { files } = manifest;
  if (files.bounds === undefined || files.blocks === undefined) throw new Error(`${directory} holds no index of format 5`);
  rmSync(join(directory, files.bounds.name));
  // The bounds file's checksums come last (`checksummedKinds`).
  const blocks = readFileSync(join(directory, files.blocks.name));
  const kept = blocks.subarray(0, blocks.length - blockCount(files.bounds.bytes) * checksumBytes);
  writeFileSync(join(directory, files.blocks.name), kept);
  files.blocks = { name: files.blocks.name, bytes: kept.length, sha256: createHash("sha256").update(kept).digest("hex") };
  delete files.bounds;
  manifest.formatVersion = 4;
  writeFileSync(`${path}.edit`, JSON.stringify(manifest));
  renameSync(`${path}.edit`, path);
}
