import { closeSync } from "node:fs";
import { blockCount, blockMatches, checksumBlockBytes, checksumBytes } from "./block-checksums.js";
import type { BlockHash } from "./block-checksums.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { readFully } from "./file-records.js";

/**
 * One open data file of a format-4 generation, read by position and checked block by block:
 * the first read of a block reads it whole and compares its checksum with the stored one
 * (a mismatch is a `CorruptIndexError` naming the folder and file, never wrong bytes
 * handed on); later reads of it read only what they ask for. The descriptor pins the file
 * even when a later commit removes it, until `close`.
 */
export class VerifiedFile {
  private readonly verified: Uint8Array;
  private scratch: Buffer | undefined;

  constructor(
    private readonly descriptor: number,
    readonly directory: string,
    readonly name: string,
    readonly size: number,
    /** The file's block checksums (`checksumBytes(hash)` each, in order). */
    private readonly checksums: Buffer,
    /** How the checksums were made (the manifest's `blockHash`). */
    private readonly hash: BlockHash,
  ) {
    const blocks = blockCount(size);
    if (checksums.length !== blocks * checksumBytes(hash)) {
      throw new CorruptIndexError({ directory, reason: `the block checksums of ${name} do not cover its ${size} bytes` });
    }
    this.verified = new Uint8Array(blocks);
  }

  /** `length` bytes from `position`, in a fresh buffer of its own (offset 0: ready for typed array views). */
  read(position: number, length: number): Uint8Array {
    const target = Buffer.allocUnsafeSlow(length);
    this.readInto(target, position);
    return target;
  }

  /**
   * Fills `target` with the bytes from `position` on. Blocks it covers whole are read into
   * it and checked there: after a `CorruptIndexError` its bytes are unspecified.
   */
  readInto(target: Uint8Array, position: number): void {
    const end = position + target.length;
    if (position < 0 || end > this.size) {
      throw new CorruptIndexError({
        directory: this.directory,
        reason: `a read of bytes ${position}-${end} of ${this.name} goes past its ${this.size} bytes (its index tables are inconsistent)`,
      });
    }
    let at = position;
    while (at < end) {
      const block = Math.floor(at / checksumBlockBytes);
      if (this.verified[block] === 1) {
        // A run of checked blocks: one read.
        let last = block;
        while ((last + 1) * checksumBlockBytes < end && this.verified[last + 1] === 1) last += 1;
        const runEnd = Math.min(end, (last + 1) * checksumBlockBytes);
        readFully(this.descriptor, target.subarray(at - position, runEnd - position), at, this.directory, this.name);
        at = runEnd;
        continue;
      }
      const blockStart = block * checksumBlockBytes;
      const blockLength = Math.min(checksumBlockBytes, this.size - blockStart);
      if (blockStart >= position && blockStart + blockLength <= end) {
        at = this.readUncheckedRun(target, position, block);
        continue;
      }
      this.scratch ??= Buffer.allocUnsafe(checksumBlockBytes);
      const bytes = this.scratch.subarray(0, blockLength);
      readFully(this.descriptor, bytes, blockStart, this.directory, this.name);
      this.check(bytes, block);
      const copyEnd = Math.min(end, blockStart + blockLength);
      target.set(bytes.subarray(at - blockStart, copyEnd - blockStart), at - position);
      at = copyEnd;
    }
  }

  /**
   * Reads the unchecked blocks from `first` on that lie wholly inside `target` (which starts
   * at byte `position` of the file) straight into it, in one read, then checks each in place:
   * large reads are not copied through the scratch block. Returns the byte after the last.
   */
  private readUncheckedRun(target: Uint8Array, position: number, first: number): number {
    const end = position + target.length;
    let last = first;
    while (
      last + 1 < this.verified.length &&
      this.verified[last + 1] === 0 &&
      Math.min(this.size, (last + 2) * checksumBlockBytes) <= end
    ) {
      last += 1;
    }
    const runStart = first * checksumBlockBytes;
    const runEnd = Math.min(this.size, (last + 1) * checksumBlockBytes);
    readFully(this.descriptor, target.subarray(runStart - position, runEnd - position), runStart, this.directory, this.name);
    for (let block = first; block <= last; block += 1) {
      const blockStart = block * checksumBlockBytes;
      const blockEnd = Math.min(runEnd, blockStart + checksumBlockBytes);
      this.check(target.subarray(blockStart - position, blockEnd - position), block);
    }
    return runEnd;
  }

  /** Compares block `block`'s bytes with its stored checksum and marks it checked. */
  private check(bytes: Uint8Array, block: number): void {
    const width = checksumBytes(this.hash);
    if (!blockMatches(bytes, this.hash, this.checksums.subarray(block * width, (block + 1) * width))) {
      const blockStart = block * checksumBlockBytes;
      throw new CorruptIndexError({
        directory: this.directory,
        reason: `${this.name} does not match its checksum in the manifest's block list at bytes ${blockStart}-${blockStart + bytes.length} (a changed or damaged byte)`,
      });
    }
    this.verified[block] = 1;
  }

  /** Checks every block not checked yet (a writer's open: it copies what it does not read). */
  verifyAll(): void {
    const chunk = new Uint8Array(Math.min(this.size, 64 * checksumBlockBytes));
    for (let at = 0; at < this.size; at += chunk.length) {
      this.readInto(chunk.subarray(0, Math.min(chunk.length, this.size - at)), at);
    }
  }

  close(): void {
    closeSync(this.descriptor);
  }
}
