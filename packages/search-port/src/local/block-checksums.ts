import { createHash } from "node:crypto";
import type { Hash } from "node:crypto";

/**
 * Format 4 checks its data files block by block: the SHA-256 of every `checksumBlockBytes`
 * block of every data file is in the generation's `blocks` file (whose own SHA-256 is in
 * the manifest), so a reader checks only the blocks it reads, each the first time it reads
 * it, and opening costs the same at ten records as at ten million.
 */
export const checksumBlockBytes = 64 * 1024;

/** Bytes of one block checksum in the `blocks` file. */
export const checksumBytes = 32;

/** The data files a `blocks` file covers, in the order their checksums follow each other. */
export const checksummedKinds = ["keys", "terms", "postings", "offsets", "content", "metadata", "vectors", "bounds"] as const;

/** How many checksum blocks a file of `bytes` bytes has. */
export function blockCount(bytes: number): number {
  return Math.ceil(bytes / checksumBlockBytes);
}

/** Hashes a stream of bytes block by block; `digests()` gives the checksums of all blocks, the last one partial. */
export class BlockHasher {
  private readonly finished: Buffer[] = [];
  private hash: Hash = createHash("sha256");
  private filled = 0;

  update(data: Uint8Array): void {
    let offset = 0;
    while (offset < data.length) {
      const take = Math.min(checksumBlockBytes - this.filled, data.length - offset);
      this.hash.update(data.subarray(offset, offset + take));
      this.filled += take;
      offset += take;
      if (this.filled === checksumBlockBytes) {
        this.finished.push(this.hash.digest());
        this.hash = createHash("sha256");
        this.filled = 0;
      }
    }
  }

  /** The checksums, one per block; call once, after the last `update`. */
  digests(): Buffer {
    if (this.filled > 0) this.finished.push(this.hash.digest());
    this.filled = 0;
    return Buffer.concat(this.finished);
  }
}

/** The SHA-256 of one block, to compare with its stored checksum. */
export function blockDigest(block: Uint8Array): Buffer {
  return createHash("sha256").update(block).digest();
}
