import { createHash } from "node:crypto";
import { closeSync, readSync } from "node:fs";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import type { RecordFile } from "./record-file.js";

/** Bytes of one data file read by position (a plain descriptor, or a `VerifiedFile`). */
export interface ByteSource {
  read(position: number, length: number): Uint8Array;
  /** Checks every byte against its checksum, where the source checks by block. */
  verifyAll?(): void;
  close(): void;
}

/** Where each record's content and metadata start; `slot` = count gives the ends. */
export interface RecordOffsets {
  content(slot: number): number;
  metadata(slot: number): number;
  /** All of them in memory, where they are read by position. */
  all?(): { content: Float64Array; metadata: Float64Array };
  /** The starts of slots `from` to `to` (both included) in one read, where they are read by position. */
  run?(kind: "content" | "metadata", from: number, to: number): Float64Array;
}

/** A data file already checked (or just written): read by position without further checks. */
export function descriptorSource(descriptor: number, directory: string, name: string): ByteSource {
  return {
    read(position, length) {
      const buffer = new Uint8Array(length);
      readFully(descriptor, buffer, position, directory, name);
      return buffer;
    },
    close: () => closeSync(descriptor),
  };
}

/** Offsets held in memory: `count + 1` entries per file. */
export function memoryOffsets(contentOffsets: Float64Array, metadataOffsets: Float64Array): RecordOffsets {
  return {
    content: (slot) => contentOffsets[slot] ?? 0,
    metadata: (slot) => metadataOffsets[slot] ?? 0,
    run: (kind, from, to) => (kind === "content" ? contentOffsets : metadataOffsets).subarray(from, to + 1),
  };
}

/**
 * The content and metadata of one committed generation, read from its files on demand:
 * a search reads only the records it returns, and parses every record's metadata once, the
 * first time a filter needs it. The files stay open (their descriptors pin them even when a
 * later commit removes them) until `close`, which also closes the generation's other files
 * (`alsoClose`, a format-4 reader's keys, lexicon and vectors).
 */
export interface FileRecordsFiles {
  content: ByteSource;
  metadata: ByteSource;
  /** The files' names, for errors. */
  contentName: string;
  metadataName: string;
  count: number;
  /**
   * Byte offsets of each record in the content and metadata files. The metadata file is
   * the JSON objects, each followed by a comma, so `[` + the file without its last byte +
   * `]` is a JSON array of them all.
   */
  offsets: RecordOffsets;
  /** The metadata file's SHA-256, checked when the whole file is first read. */
  metadataSha256: string;
  alsoClose?: ByteSource[];
}

export class FileRecords implements RecordFile {
  private metadataCache: Array<Record<string, unknown>> | undefined;
  private readonly files: FileRecordsFiles;
  readonly count: number;

  constructor(
    readonly directory: string,
    files: FileRecordsFiles,
  ) {
    this.files = files;
    this.count = files.count;
  }

  /** Where record `slot` starts in the content or metadata file (`count`: the end of the last). */
  offset(kind: "content" | "metadata", slot: number): number {
    return kind === "content" ? this.files.offsets.content(slot) : this.files.offsets.metadata(slot);
  }

  /**
   * Where records `from` to `to` (both included) start: one read of the offsets file where
   * `offset` would make one per record (a merge copies runs of a million records).
   */
  offsetRun(kind: "content" | "metadata", from: number, to: number): Float64Array {
    const run = this.files.offsets.run?.(kind, from, to);
    if (run !== undefined) return run;
    const starts = new Float64Array(to - from + 1);
    for (let slot = from; slot <= to; slot += 1) starts[slot - from] = this.offset(kind, slot);
    return starts;
  }

  content(slot: number): string {
    return Buffer.from(this.readRange("content", slot).buffer).toString("utf8");
  }

  locate(slot: number): { file: FileRecords; slot: number } {
    return { file: this, slot };
  }

  /** Raw bytes of the content or metadata file (to copy committed records into a new generation). */
  readBytes(kind: "content" | "metadata", position: number, length: number): Uint8Array {
    return (kind === "content" ? this.files.content : this.files.metadata).read(position, length);
  }

  /** One record's metadata as JSON text (each object is stored followed by a comma). */
  metadataText(slot: number): string {
    const bytes = this.readRange("metadata", slot);
    return Buffer.from(bytes.buffer, 0, Math.max(0, bytes.length - 1)).toString("utf8");
  }

  /**
   * The metadata of records `from` to `to` (exclusive) as JSON text, objects separated by
   * commas (the last one's dropped): `[` + it + `]` is their array. Offsets that go back
   * are a `CorruptIndexError` naming the file, as for one record.
   */
  metadataRunText(from: number, to: number): string {
    const start = this.offset("metadata", from);
    const end = this.offset("metadata", to);
    if (end < start) {
      throw new CorruptIndexError({
        directory: this.directory,
        reason: `the offsets of ${this.files.metadataName} decrease between records ${from} and ${to}`,
      });
    }
    const bytes = this.readBytes("metadata", start, end - start);
    return Buffer.from(bytes.buffer, bytes.byteOffset, Math.max(0, bytes.length - 1)).toString("utf8");
  }

  /** A fresh copy of one record's metadata. */
  metadata(slot: number): Record<string, unknown> {
    return parseMetadata(this.metadataText(slot), this.directory);
  }

  /** Every record's metadata, parsed once and shared: callers must not change it. */
  allMetadata(): Array<Record<string, unknown>> {
    if (this.metadataCache !== undefined) return this.metadataCache;
    const start = this.offset("metadata", 0);
    const end = this.offset("metadata", this.count);
    const buffer = this.readBytes("metadata", start, end - start);
    if (createHash("sha256").update(buffer).digest("hex") !== this.files.metadataSha256) {
      throw new CorruptIndexError({
        directory: this.directory,
        reason: `${this.files.metadataName} does not match its checksum in the manifest`,
      });
    }
    // Every object is followed by a comma: drop the last one and wrap the rest in brackets.
    const text = Buffer.from(buffer.buffer, 0, Math.max(0, buffer.length - 1)).toString("utf8");
    let parsed: unknown;
    try {
      parsed = JSON.parse(`[${text}]`);
    } catch (error) {
      throw new CorruptIndexError({ directory: this.directory, reason: `${this.files.metadataName} is not valid JSON`, cause: error });
    }
    if (!Array.isArray(parsed) || parsed.length !== this.count || !parsed.every(isPlainObject)) {
      throw new CorruptIndexError({ directory: this.directory, reason: `${this.files.metadataName} does not hold one object per record` });
    }
    this.metadataCache = parsed as Array<Record<string, unknown>>;
    return this.metadataCache;
  }

  /**
   * The same records with every byte of content and metadata checked and the offsets in
   * memory (a writer's open: it copies runs of records into each new generation). The
   * result owns the files; this one must not be closed.
   */
  checkedInMemory(): FileRecords {
    this.files.content.verifyAll?.();
    this.files.metadata.verifyAll?.();
    const all = this.files.offsets.all?.();
    if (all === undefined) return this;
    return new FileRecords(this.directory, { ...this.files, offsets: memoryOffsets(all.content, all.metadata) });
  }

  close(): void {
    const sources = [this.files.content, this.files.metadata, ...(this.files.alsoClose ?? [])];
    let failure: unknown;
    for (const source of sources) {
      try {
        source.close();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }

  private readRange(kind: "content" | "metadata", slot: number): Uint8Array {
    const start = this.offset(kind, slot);
    const end = this.offset(kind, slot + 1);
    if (end < start) {
      const name = kind === "content" ? this.files.contentName : this.files.metadataName;
      throw new CorruptIndexError({ directory: this.directory, reason: `the offsets of ${name} decrease at record ${slot}` });
    }
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
