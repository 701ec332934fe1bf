import { createHash } from "node:crypto";
import type { Hash } from "node:crypto";
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { BlockHasher } from "./block-checksums.js";
import type { IndexFileEntry } from "./index-manifest.js";

/**
 * Writes one file, hashing what it writes (whole and block by block, see
 * block-checksums.ts), through a buffer; `finish` closes it without a sync: a data file is
 * synced once, just before the first manifest that lists it is written (`syncNewFiles`), so
 * one merged away before any commit listed it (a flushed segment) is never synced at all.
 */
export class HashedFileWriter {
  private readonly hash: Hash = createHash("sha256");
  private readonly blocks = new BlockHasher();
  private blockDigests: Buffer | undefined;
  /** Filled while the other one is written (`writing`): the caller computes what comes next meanwhile. */
  private buffer: Buffer = Buffer.allocUnsafe(1024 * 1024);
  private spare: Buffer | undefined;
  private used = 0;
  /** The write of the last full buffer, still going on (awaited before another write starts). */
  private writing: Promise<void> | undefined;
  bytes = 0;

  private constructor(
    private readonly handle: FileHandle,
    readonly name: string,
  ) {}

  /**
   * Creates `name`, which must not exist yet ("wx": a commit never writes into a file it
   * did not create), and adds it to `created` once it exists.
   */
  static async create(directory: string, name: string, created: string[]): Promise<HashedFileWriter> {
    const handle = await open(join(directory, name), "wx");
    created.push(name);
    return new HashedFileWriter(handle, name);
  }

  async write(data: Uint8Array): Promise<void> {
    if (data.length > this.buffer.length / 2) {
      // The caller may reuse `data` once this returns: written now, after what came before.
      await this.drain();
      this.hashed(data);
      this.bytes += data.length;
      await this.writeFully(data);
      return;
    }
    if (this.used + data.length > this.buffer.length) await this.flush();
    this.buffer.set(data, this.used);
    this.used += data.length;
    this.bytes += data.length;
  }

  /**
   * Adds `text` (UTF-8) to the buffer when it fits there without a write, and says whether it
   * did (otherwise `write` its bytes): a record's content is copied once, with no buffer of its own.
   */
  bufferText(text: string): boolean {
    // At most 3 bytes per UTF-16 unit: a text this short always fits once the buffer has room.
    if (this.used + 3 * text.length > this.buffer.length) return false;
    const written = this.buffer.write(text, this.used, "utf8");
    this.used += written;
    this.bytes += written;
    return true;
  }

  async finish(): Promise<IndexFileEntry> {
    try {
      await this.drain();
    } finally {
      await this.writing?.catch(() => undefined);
      await this.handle.close();
    }
    this.blockDigests = this.blocks.digests();
    return { name: this.name, bytes: this.bytes, sha256: this.hash.digest("hex") };
  }

  /** The checksum of each block of what was written (after `finish`; block-checksums.ts). */
  blockChecksums(): Buffer {
    if (this.blockDigests === undefined) throw new Error(`${this.name} is not finished`);
    return this.blockDigests;
  }

  async abandon(): Promise<void> {
    await this.writing?.catch(() => undefined);
    await this.handle.close().catch(() => undefined);
  }

  /** Starts writing the buffer (once the write before it is done) and fills the other one meanwhile. */
  private async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.settle();
    const full = this.buffer.subarray(0, this.used);
    this.hashed(full);
    // The second buffer is made on the first flush: a small file (most are) needs one.
    [this.buffer, this.spare] = [this.spare ?? Buffer.allocUnsafe(this.buffer.length), this.buffer];
    this.used = 0;
    const writing = this.writeFully(full);
    // Awaited by the next flush or `finish` (which throw its error); not unhandled meanwhile.
    writing.catch(() => undefined);
    this.writing = writing;
  }

  /** Writes all that is buffered and waits until it is written. */
  private async drain(): Promise<void> {
    await this.settle();
    if (this.used === 0) return;
    const rest = this.buffer.subarray(0, this.used);
    this.hashed(rest);
    await this.writeFully(rest);
    this.used = 0;
  }

  /**
   * Hashes bytes as they leave the buffer, in order: a buffer of small writes is hashed in one
   * call per hash, not one per write (a record's content, metadata and comma were three each).
   */
  private hashed(data: Uint8Array): void {
    this.hash.update(data);
    this.blocks.update(data);
  }

  /** Waits for the buffer being written, throwing what its write threw. */
  private async settle(): Promise<void> {
    const writing = this.writing;
    this.writing = undefined;
    await writing;
  }

  private async writeFully(data: Uint8Array): Promise<void> {
    let done = 0;
    while (done < data.length) {
      const { bytesWritten } = await this.handle.write(data, done, data.length - done);
      done += bytesWritten;
    }
  }
}

/**
 * Creates `name` and writes `data` to it whole through a `HashedFileWriter`; returns its
 * manifest entry and its block checksums.
 */
export async function writeWholeFile(
  directory: string,
  name: string,
  data: Uint8Array[],
  created: string[],
): Promise<{ entry: IndexFileEntry; blocks: Buffer }> {
  const writer = await HashedFileWriter.create(directory, name, created);
  try {
    for (const part of data) await writer.write(part);
    const entry = await writer.finish();
    return { entry, blocks: writer.blockChecksums() };
  } catch (error) {
    await writer.abandon();
    throw error;
  }
}
