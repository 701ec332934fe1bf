import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BlockHasher, checksummedKinds } from "../format/block-checksums.js";
import type { IndexManifest } from "../format/index-manifest.js";
import type { SegmentedManifest } from "../format/segmented-manifest.js";
import { manifestChecksum } from "../format/manifest-text.js";

/**
 * Test helper: after a test has changed the committed index in `directory` (its data files,
 * or its manifest through `edit`), makes every checksum agree with it again: each listed
 * file's size and SHA-256, the `blocks` file (in the manifest's `blockHash`, SHA-256 when
 * absent) and its own entry. So a test can prove what a reader does with content that is
 * wrong but not damaged. Not exported from the package.
 */
export function recomputeChecksums(directory: string, edit: (manifest: IndexManifest) => void = () => {}): void {
  const path = join(directory, "manifest.json");
  const manifest = JSON.parse(readFileSync(path, "utf8")) as IndexManifest;
  edit(manifest);
  const segmented = manifest as unknown as Partial<SegmentedManifest>;
  if (segmented.segments !== undefined) {
    // Format 7: each segment's files and blocks (the index's own files, as a generation's counts file, are left as they are).
    for (const segment of segmented.segments) recomputeFiles(directory, segment.files as IndexManifest["files"], manifest.blockHash);
  } else {
    recomputeFiles(directory, manifest.files, manifest.blockHash);
  }
  // The manifest's own checksum (format 5 writes one; older formats had none).
  if (manifest.formatVersion >= 5) manifest.checksum = manifestChecksum(manifest);
  else delete manifest.checksum;
  writeFileSync(`${path}.edit`, JSON.stringify(manifest));
  renameSync(`${path}.edit`, path);
}

/** Every data file's entry and the `blocks` file of one generation or segment, as the files are now. */
function recomputeFiles(directory: string, files: IndexManifest["files"], blockHash: IndexManifest["blockHash"]): void {
  if (files.blocks === undefined) throw new Error(`${directory} holds no index with block checksums`);
  const checksums = checksummedKinds.flatMap((kind) => {
    const entry = files[kind];
    if (entry === undefined) return [];
    const data = readFileSync(join(directory, entry.name));
    files[kind] = { name: entry.name, bytes: data.length, sha256: createHash("sha256").update(data).digest("hex") };
    const hasher = new BlockHasher(blockHash ?? "sha256");
    hasher.update(data);
    return [hasher.digests()];
  });
  const blocks = Buffer.concat(checksums);
  writeFileSync(join(directory, files.blocks.name), blocks);
  files.blocks = { name: files.blocks.name, bytes: blocks.length, sha256: createHash("sha256").update(blocks).digest("hex") };
}
