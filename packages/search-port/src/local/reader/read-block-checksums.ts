import { createHash } from "node:crypto";
import { closeSync, fstatSync, readSync } from "node:fs";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { blockCount, checksumBytes, checksummedKinds } from "../format/block-checksums.js";
import type { BlockHash } from "../format/block-checksums.js";
import { checkFileEntry } from "../format/check-file-entry.js";
import type { IndexFileEntry, IndexFileKind, IndexManifest } from "../format/index-manifest.js";
import { openExistingFile } from "../format/open-existing-file.js";

/** The `blocks` file, checked whole against the manifest, cut into each data file's checksums. */
export function readBlockChecksums(
  directory: string,
  entry: IndexFileEntry,
  manifest: IndexManifest,
  hash: BlockHash,
): Map<IndexFileKind, Buffer> {
  const descriptor = openExistingFile(directory, entry.name);
  let data: Buffer;
  try {
    checkFileEntry(directory, entry, fstatSync(descriptor).size, undefined);
    data = Buffer.allocUnsafe(entry.bytes);
    let done = 0;
    while (done < data.length) {
      const read = readSync(descriptor, data, done, data.length - done, done);
      if (read === 0) throw new CorruptIndexError({ directory, reason: `${entry.name} ends at byte ${done}, before its ${entry.bytes}` });
      done += read;
    }
  } finally {
    closeSync(descriptor);
  }
  checkFileEntry(directory, entry, data.length, createHash("sha256").update(data).digest("hex"));
  const parts = new Map<IndexFileKind, Buffer>();
  let at = 0;
  for (const kind of checksummedKinds) {
    const file = manifest.files[kind];
    if (file === undefined) continue;
    const bytes = blockCount(file.bytes) * checksumBytes(hash);
    parts.set(kind, data.subarray(at, at + bytes));
    at += bytes;
  }
  if (at !== data.length) {
    throw new CorruptIndexError({ directory, reason: `${entry.name} has ${data.length} bytes, the files it covers need ${at}` });
  }
  return parts;
}
