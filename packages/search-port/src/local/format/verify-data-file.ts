import { createHash } from "node:crypto";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { readFully } from "./file-records.js";
import type { IndexFileEntry } from "./index-manifest.js";

const blockBytes = 4 * 1024 * 1024;

/**
 * Hashes the open file `descriptor` (the data file `entry` of a manifest, already checked
 * for its size) and throws `CorruptIndexError` naming the folder and file unless its
 * SHA-256 is the one the manifest records. Hashing the open descriptor checks exactly the
 * bytes later reads see, even when a writer removes or replaces the file meanwhile. The
 * file is read in 4 MB blocks, so memory stays flat however large it is.
 */
export function verifyDataFile(descriptor: number, directory: string, entry: IndexFileEntry): void {
  const hash = createHash("sha256");
  const block = Buffer.allocUnsafe(Math.min(blockBytes, Math.max(1, entry.bytes)));
  for (let position = 0; position < entry.bytes; position += block.length) {
    const part = entry.bytes - position < block.length ? block.subarray(0, entry.bytes - position) : block;
    readFully(descriptor, part, position, directory, entry.name);
    hash.update(part);
  }
  if (hash.digest("hex") !== entry.sha256) {
    throw new CorruptIndexError({
      directory,
      reason: `${entry.name} does not match its checksum in the manifest (a changed or damaged byte)`,
    });
  }
}
