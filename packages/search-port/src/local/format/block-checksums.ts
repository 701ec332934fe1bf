import { createHash } from "node:crypto";
import type { Hash } from "node:crypto";
import { createRequire } from "node:module";
import type { Xxh64 as Xxh64Hash } from "@node-rs/xxhash";

// Required, not imported: @node-rs/xxhash is a CommonJS package, and an ES module importing one
// makes Node start its CommonJS export scanner, 40-60 ms of CPU in a one-query process that
// imports no other (issue 36 item 5; the same binding either way).
const { Xxh64, xxh64 } = createRequire(import.meta.url)("@node-rs/xxhash") as typeof import("@node-rs/xxhash");

/**
 * Formats 4 and 5 check their data files block by block: a checksum of every
 * `checksumBlockBytes` block of every data file is in the generation's `blocks` file (whose
 * own SHA-256 is in the manifest), so a reader checks only the blocks it reads, each the
 * first time it reads it, and opening costs the same at ten records as at ten million.
 */
export const checksumBlockBytes = 64 * 1024;

/**
 * How a block is checksummed (the manifest's `blockHash`): format 4 took the SHA-256 of each
 * block; format 5 takes its 64-bit xxHash (XXH64, seed 0, stored little-endian), which
 * checks a block about 5x as fast here (8 against 1.5 GB/s, @node-rs/xxhash). The checksums guard against
 * damaged or changed bytes, not against someone who can rewrite the folder: the manifest
 * keeps the SHA-256 of every whole file and of the `blocks` file.
 */
export type BlockHash = "sha256" | "xxh64";

/** The block hash this version writes. */
export const writtenBlockHash: BlockHash = "xxh64";

/** Bytes of one block checksum in the `blocks` file. */
export function checksumBytes(hash: BlockHash): number {
  return hash === "sha256" ? 32 : 8;
}

/** The data files a `blocks` file covers, in the order their checksums follow each other. */
export const checksummedKinds = ["keys", "terms", "postings", "offsets", "content", "metadata", "vectors", "bounds"] as const;

/** How many checksum blocks a file of `bytes` bytes has. */
export function blockCount(bytes: number): number {
  return Math.ceil(bytes / checksumBlockBytes);
}

/** Hashes a stream of bytes block by block; `digests()` gives the checksums of all blocks, the last one partial. */
export class BlockHasher {
  private readonly finished: Buffer[] = [];
  private hash: Hash | Xxh64Hash;
  private filled = 0;

  constructor(private readonly kind: BlockHash = writtenBlockHash) {
    this.hash = this.start();
  }

  update(data: Uint8Array): void {
    let offset = 0;
    while (offset < data.length) {
      const take = Math.min(checksumBlockBytes - this.filled, data.length - offset);
      this.hash.update(data.subarray(offset, offset + take));
      this.filled += take;
      offset += take;
      if (this.filled === checksumBlockBytes) {
        this.finished.push(this.finish());
        this.hash = this.start();
        this.filled = 0;
      }
    }
  }

  /** The checksums, one per block; call once, after the last `update`. */
  digests(): Buffer {
    if (this.filled > 0) this.finished.push(this.finish());
    this.filled = 0;
    return Buffer.concat(this.finished);
  }

  private start(): Hash | Xxh64Hash {
    return this.kind === "sha256" ? createHash("sha256") : new Xxh64();
  }

  private finish(): Buffer {
    const digest = this.hash.digest();
    return typeof digest === "bigint" ? xxh64Bytes(digest) : digest;
  }
}

/** Whether `block` has the checksum `expected` (`checksumBytes(hash)` bytes). */
export function blockMatches(block: Uint8Array, hash: BlockHash, expected: Buffer): boolean {
  if (hash === "sha256") return createHash("sha256").update(block).digest().equals(expected);
  return expected.length === 8 && xxh64(block) === expected.readBigUInt64LE(0);
}

function xxh64Bytes(value: bigint): Buffer {
  const bytes = Buffer.allocUnsafe(8);
  bytes.writeBigUInt64LE(value);
  return bytes;
}
