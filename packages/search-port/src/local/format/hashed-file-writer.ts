import { createHash } from "node:crypto";
import type { Hash } from "node:crypto";
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { BlockHasher } from "./block-checksums.js";
import type { IndexFileEntry } from "./index-manifest.js";

/**
 * Writes one file, hashing what it writes (whole and block by block, see
 * block-checksums.ts), through a buffer; `finish` fsyncs and closes.
 */
export class HashedFileWriter {
  private readonly hash: Hash = createHash("sha256");
  private readonly blocks = new BlockHasher();
  private blockDigests: Buffer | undefined;
  private readonly buffer = Buffer.allocUnsafe(1024 * 1024);
  private used = 0;
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
    this.hash.update(data);
    this.blocks.update(data);
    this.bytes += data.length;
    if (data.length > this.buffer.length / 2) {
      await this.flush();
      await this.writeFully(data);
      return;
    }
    if (this.used + data.length > this.buffer.length) await this.flush();
    this.buffer.set(data, this.used);
    this.used += data.length;
  }

  async finish(): Promise<IndexFileEntry> {
    try {
      await this.flush();
      await this.handle.sync();
    } finally {
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
    await this.handle.close().catch(() => undefined);
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.writeFully(this.buffer.subarray(0, this.used));
    this.used = 0;
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
