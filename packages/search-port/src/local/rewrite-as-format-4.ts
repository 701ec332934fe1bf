import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BlockHasher, checksummedKinds } from "./block-checksums.js";
import type { IndexManifest } from "./index-manifest.js";

/**
 * Test helper: rewrites the committed format-5 index in `directory` as format 4 left it (no
 * bounds file, the block checksums SHA-256), so tests can prove that such indexes are still
 * read, with the same results, and continued. Not exported from the package.
 */
export function rewriteAsFormat4(directory: string): void {
  const path = join(directory, "manifest.json");
  const manifest = JSON.parse(readFileSync(path, "utf8")) as IndexManifest;
  const { files } = manifest;
  if (files.bounds === undefined || files.blocks === undefined) throw new Error(`${directory} holds no index of format 5`);
  rmSync(join(directory, files.bounds.name));
  delete files.bounds;
  const checksums = checksummedKinds.flatMap((kind) => {
    const entry = files[kind];
    if (entry === undefined) return [];
    const hasher = new BlockHasher("sha256");
    hasher.update(readFileSync(join(directory, entry.name)));
    return [hasher.digests()];
  });
  const blocks = Buffer.concat(checksums);
  writeFileSync(join(directory, files.blocks.name), blocks);
  files.blocks = { name: files.blocks.name, bytes: blocks.length, sha256: createHash("sha256").update(blocks).digest("hex") };
  delete manifest.blockHash;
  manifest.formatVersion = 4;
  writeFileSync(`${path}.edit`, JSON.stringify(manifest));
  renameSync(`${path}.edit`, path);
}
