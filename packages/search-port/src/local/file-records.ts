import { createHash } from "node:crypto";
import { closeSync, readSync } from "node:fs";
import { CorruptIndexError } from "./corrupt-index-error.js";

/**
 * The content and metadata of one committed generation, read from its files on demand:
 * a search reads only the records it returns, and parses every record's metadata once, the
 * first time a filter needs it. The files stay open (their descriptors pin them even when a
 * later commit removes them) until `close`.
 */
export interface FileRecordsFiles {
  contentDescriptor: number;
  metadataDescriptor: number;
  /** The files' names, for errors. */
  contentName: string;
  metadataName: string;
  /** Byte offsets of each record's content in the content file; `count + 1` entries. */
  contentOffsets: Float64Array;
  /**
   * Byte offsets of each record's metadata object in the metadata file; `count + 1`
   * entries. The file is the JSON objects, each followed by a comma, so `[` + the file
   * without its last byte + `]` is a JSON array of them all.
   */
  metadataOffsets: Float64Array;
  /** The metadata file's SHA-256, checked when the whole file is first read. */
  metadataSha256: string;
}

export class FileRecords {
  private metadataCache: Array<Record<string, unknown>> | undefined;
  private readonly contentDescriptor: number;
  private readonly metadataDescriptor: number;
  private readonly contentName: string;
  private readonly metadataName: string;
  private readonly metadataSha256: string;
  readonly contentOffsets: Float64Array;
  readonly metadataOffsets: Float64Array;

  constructor(
    readonly directory: string,
    files: FileRecordsFiles,
  ) {
    this.contentDescriptor = files.contentDescriptor;
    this.metadataDescriptor = files.metadataDescriptor;
    this.contentName = files.contentName;
    this.metadataName = files.metadataName;
    this.contentOffsets = files.contentOffsets;
    this.metadataOffsets = files.metadataOffsets;
    this.metadataSha256 = files.metadataSha256;
  }

  get count(): number {
    return this.contentOffsets.length - 1;
  }

  content(slot: number): string {
    return this.readRange("content", slot).toString("utf8");
  }

  /** Raw bytes of the content or metadata file (to copy committed records into a new generation). */
  readBytes(kind: "content" | "metadata", position: number, length: number): Buffer {
    const buffer = Buffer.allocUnsafe(length);
    if (kind === "content") readFully(this.contentDescriptor, buffer, position, this.directory, this.contentName);
    else readFully(this.metadataDescriptor, buffer, position, this.directory, this.metadataName);
    return buffer;
  }

  /** One record's metadata as JSON text (each object is stored followed by a comma). */
  metadataText(slot: number): string {
    const bytes = this.readRange("metadata", slot);
    return bytes.subarray(0, Math.max(0, bytes.length - 1)).toString("utf8");
  }

  /** A fresh copy of one record's metadata. */
  metadata(slot: number): Record<string, unknown> {
    return parseMetadata(this.metadataText(slot), this.directory);
  }

  /** Every record's metadata, parsed once and shared: callers must not change it. */
  allMetadata(): Array<Record<string, unknown>> {
    if (this.metadataCache !== undefined) return this.metadataCache;
    const start = this.metadataOffsets[0] ?? 0;
    const end = this.metadataOffsets[this.count] ?? start;
    const buffer = Buffer.allocUnsafe(end - start);
    readFully(this.metadataDescriptor, buffer, start, this.directory, this.metadataName);
    if (createHash("sha256").update(buffer).digest("hex") !== this.metadataSha256) {
      throw new CorruptIndexError({
        directory: this.directory,
        reason: `${this.metadataName} does not match its checksum in the manifest`,
      });
    }
    // Every object is followed by a comma: drop the last one and wrap the rest in brackets.
    const text = buffer.subarray(0, Math.max(0, buffer.length - 1)).toString("utf8");
    let parsed: unknown;
    try {
      parsed = JSON.parse(`[${text}]`);
    } catch (error) {
      throw new CorruptIndexError({ directory: this.directory, reason: `${this.metadataName} is not valid JSON`, cause: error });
    }
    if (!Array.isArray(parsed) || parsed.length !== this.count || !parsed.every(isPlainObject)) {
      throw new CorruptIndexError({ directory: this.directory, reason: `${this.metadataName} does not hold one object per record` });
    }
    this.metadataCache = parsed as Array<Record<string, unknown>>;
    return this.metadataCache;
  }

  close(): void {
    try {
      closeSync(this.contentDescriptor);
    } finally {
      closeSync(this.metadataDescriptor);
    }
  }

  private readRange(kind: "content" | "metadata", slot: number): Buffer {
    const offsets = kind === "content" ? this.contentOffsets : this.metadataOffsets;
    const start = offsets[slot] ?? 0;
    const end = offsets[slot + 1] ?? start;
    return this.readBytes(kind, start, end - start);
  }
}

/**
 * Reads `target.length` bytes at `position` of an index file; a file that ends early (it
 * was truncated after it was opened) is a `CorruptIndexError` naming the folder and file.
 */
export function readFully(descriptor: number, target: Uint8Array, position: number, directory: string, name: string): void {
  let done = 0;
  while (done < target.length) {
    const read = readSync(descriptor, target, done, target.length - done, position + done);
    if (read === 0) {
      throw new CorruptIndexError({
        directory,
        reason: `${name} ends at byte ${position + done}, before the ${position + target.length} bytes the manifest promises (it was truncated)`,
      });
    }
    done += read;
  }
}

/** Parses one record's metadata text (a JSON object) into a fresh object. */
export function parseMetadata(text: string, directory: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CorruptIndexError({ directory, reason: "a record's metadata is not valid JSON", cause: error });
  }
  if (!isPlainObject(parsed)) throw new CorruptIndexError({ directory, reason: "a record's metadata is not an object" });
  return parsed;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
