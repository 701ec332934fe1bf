import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { CorruptWordTableError } from "./corrupt-word-table-error.js";

/** Bytes per checked block of `word-vectors.bin` (the manifest's `blockBytes`). */
export const wordVectorBlockBytes = 65_536;

/** What a manifest records of `word-vectors.bin` when it can be read by blocks. */
export interface BlockedFileEntry {
  bytes: number;
  sha256: string;
  /** The size of a block: `wordVectorBlockBytes`. */
  blockBytes: number;
  /** The SHA-256 (hex) of each block, in file order; the last may be short. */
  blockSha256: string[];
}

/**
 * `word-vectors.bin` read a block at a time (issue 36 item 5: a query needs the vectors of its
 * few words, not all 5.2 MB read and hashed at every cold start): `bytes` has the file's
 * length, and holds a block's bytes once `load` (or `loadRanges`) has read and checked it
 * against its recorded SHA-256; the rest is zero until then.
 */
export class LazyWordVectors {
  readonly bytes: Buffer;
  private readonly loaded: Uint8Array;
  private unread: number;

  constructor(
    private readonly path: string,
    private readonly entry: BlockedFileEntry,
    private readonly manifestPath: string,
  ) {
    this.bytes = Buffer.alloc(entry.bytes);
    this.loaded = new Uint8Array(entry.blockSha256.length);
    this.unread = this.loaded.length;
  }

  /** Whether every block is read (and checked): nothing left to look up per text. */
  get complete(): boolean {
    return this.unread === 0;
  }

  /** Reads and checks every block that holds a byte of `ranges` (pairs of start and end offsets) and was not read yet. */
  loadRanges(ranges: ArrayLike<number>): void {
    const missing: number[] = [];
    for (let index = 0; index < ranges.length; index += 2) {
      const first = Math.floor((ranges[index] as number) / wordVectorBlockBytes);
      const last = Math.floor(((ranges[index + 1] as number) - 1) / wordVectorBlockBytes);
      for (let block = first; block <= last; block += 1) if (this.loaded[block] === 0) missing.push(block);
    }
    if (missing.length > 0) this.readBlocks(missing);
  }

  /** Reads and checks every block not read yet. */
  loadAll(): void {
    const missing: number[] = [];
    this.loaded.forEach((done, block) => {
      if (done === 0) missing.push(block);
    });
    if (missing.length > 0) this.readBlocks(missing);
  }

  private readBlocks(blocks: readonly number[]): void {
    const fail = (reason: string, cause?: unknown): never => {
      throw new CorruptWordTableError({ file: this.path, reason, ...(cause === undefined ? {} : { cause }) });
    };
    let descriptor = -1;
    try {
      descriptor = openSync(this.path, "r");
    } catch (error) {
      fail("cannot be read", error);
    }
    try {
      const size = fstatSync(descriptor).size;
      if (size !== this.entry.bytes) {
        fail(`${size} bytes where ${this.manifestPath} records ${this.entry.bytes} (reinstall the package or rebuild the table)`);
      }
      for (const block of blocks) {
        if (this.loaded[block] === 1) continue;
        const start = block * wordVectorBlockBytes;
        const target = this.bytes.subarray(start, Math.min(this.entry.bytes, start + wordVectorBlockBytes));
        for (let at = 0; at < target.length; ) {
          const read = readSync(descriptor, target, at, target.length - at, start + at);
          if (read === 0) fail(`ended at byte ${start + at} while ${this.entry.bytes} were recorded`);
          at += read;
        }
        const sha256 = createHash("sha256").update(target).digest("hex");
        if (sha256 !== this.entry.blockSha256[block]) {
          target.fill(0);
          fail(
            `block ${block} (bytes ${start}-${start + target.length}) has SHA-256 ${sha256}, not ${this.entry.blockSha256[block]} ` +
              `recorded in ${this.manifestPath} (the file was changed or damaged; reinstall the package or rebuild the table)`,
          );
        }
        this.loaded[block] = 1;
        this.unread -= 1;
      }
    } finally {
      closeSync(descriptor);
    }
  }
}

/**
 * The block list of a manifest's `word-vectors.bin` entry, checked (a block size of
 * `wordVectorBlockBytes`, one hex SHA-256 per block of `bytes`); undefined when the entry has
 * none (a table built before them: read whole). `bad` throws for a malformed one.
 */
export function blockedEntry(entry: unknown, bad: (reason: string) => never): BlockedFileEntry | undefined {
  const { bytes, sha256, blockBytes, blockSha256 } = (entry ?? {}) as Record<string, unknown>;
  if (blockBytes === undefined && blockSha256 === undefined) return undefined;
  if (typeof bytes !== "number" || typeof sha256 !== "string") return bad('files["word-vectors.bin"] needs bytes and a hex sha256');
  if (blockBytes !== wordVectorBlockBytes) {
    return bad(`files["word-vectors.bin"].blockBytes is ${JSON.stringify(blockBytes)}, this version reads ${wordVectorBlockBytes}`);
  }
  const blocks = Math.ceil(bytes / wordVectorBlockBytes);
  if (
    !Array.isArray(blockSha256) ||
    blockSha256.length !== blocks ||
    !blockSha256.every((hex) => typeof hex === "string" && /^[0-9a-f]{64}$/.test(hex))
  ) {
    return bad(
      `files["word-vectors.bin"].blockSha256 must list ${blocks} hex SHA-256 digests, one per block of ${wordVectorBlockBytes} bytes`,
    );
  }
  return { bytes, sha256, blockBytes, blockSha256 };
}

/** The SHA-256 (hex) of a block list (the digests joined by new lines): what a table version pins of it. */
export function blockListSha256(entry: BlockedFileEntry): string {
  return createHash("sha256").update(entry.blockSha256.join("\n")).digest("hex");
}
