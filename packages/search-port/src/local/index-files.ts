import { createHash } from "node:crypto";
import type { Hash } from "node:crypto";
import { closeSync, fstatSync, openSync, readFileSync, readSync, readdirSync, rmSync, fsyncSync, statSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { analyzerVersion } from "@lookup-knowledge/text";
import { bm25B, bm25K1 } from "./bm25.js";
import { CorruptIndexError } from "./corrupt-index-error.js";
import { DenseMatrix, strideFor } from "./dense-matrix.js";
import { FileRecords, readFully } from "./file-records.js";
import { verifyDataFile } from "./verify-data-file.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import type { EmbedderIdentity } from "./local-search-port.js";
import {
  generationFileName,
  indexFormat,
  indexFormatVersion,
  indexManifestSchema,
  manifestFileName,
  ownedFilePattern,
} from "./index-manifest.js";
import type { IndexFileEntry, IndexFileKind, IndexManifest } from "./index-manifest.js";

/** Test hooks into a commit (internal). */
export interface CommitHooks {
  /** Runs after the data files are written, before the manifest switches to them. */
  afterDataFiles?: (generation: number) => void | Promise<void>;
  /** Runs right after the manifest switched, before the writer opens the new content and metadata files. */
  afterManifest?: (manifest: IndexManifest) => void;
}

const copyChunkBytes = 4 * 1024 * 1024;

/** Writes one file, hashing what it writes, through a buffer; `finish` fsyncs and closes. */
class HashedFileWriter {
  private readonly hash: Hash = createHash("sha256");
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
    return { name: this.name, bytes: this.bytes, sha256: this.hash.digest("hex") };
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

function bytesOf(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

async function writeWhole(directory: string, name: string, data: Uint8Array[], created: string[]): Promise<IndexFileEntry> {
  const writer = await HashedFileWriter.create(directory, name, created);
  try {
    for (const part of data) await writer.write(part);
    return await writer.finish();
  } catch (error) {
    await writer.abandon();
    throw error;
  }
}

/**
 * Writes the data files of `generation` for `snapshot` under names carrying `commitId`
 * (content and metadata are copied from the committed files in runs where they can be, so
 * a commit never holds the whole corpus in memory twice) and returns the manifest that
 * would describe them. Nothing refers to these files until the manifest is switched. Every
 * file it creates is added to `created`, also when it fails, so the caller can remove
 * exactly those.
 */
export async function writeGeneration(
  directory: string,
  generation: number,
  commitId: string,
  snapshot: IndexSnapshot,
  embedder: EmbedderIdentity | null,
  created: string[],
): Promise<{ manifest: IndexManifest; contentOffsets: Float64Array; metadataOffsets: Float64Array }> {
  const { count, lexical } = snapshot;
  const files: Partial<Record<IndexFileKind, IndexFileEntry>> = {};
  const name = (kind: IndexFileKind) => generationFileName(generation, commitId, kind);

  files.keys = await writeWhole(
    directory,
    name("keys"),
    [Buffer.from(JSON.stringify({ ids: snapshot.ids, docIds: snapshot.docIds }), "utf8")],
    created,
  );
  files.terms = await writeWhole(directory, name("terms"), [Buffer.from(lexical.terms.join("\n"), "utf8")], created);
  files.postings = await writeWhole(
    directory,
    name("postings"),
    [
      bytesOf(lexical.termStarts),
      bytesOf(lexical.postingSlots),
      bytesOf(lexical.lengths),
      bytesOf(lexical.postingFrequencies),
    ],
    created,
  );
  if (snapshot.vectors !== undefined) {
    files.vectors = await writeWhole(
      directory,
      name("vectors"),
      [bytesOf(snapshot.vectors.inverseNorms), snapshot.vectors.rowBytes()],
      created,
    );
  }

  const contentOffsets = new Float64Array(count + 1);
  const metadataOffsets = new Float64Array(count + 1);
  let content: HashedFileWriter | undefined;
  let metadata: HashedFileWriter | undefined;
  try {
    content = await HashedFileWriter.create(directory, name("content"), created);
    metadata = await HashedFileWriter.create(directory, name("metadata"), created);
    const { file, fileSlots, memory } = snapshot.records;
    const comma = Buffer.from(",");
    let slot = 0;
    while (slot < count) {
      const fileSlot = fileSlots[slot] ?? -1;
      if (fileSlot >= 0 && file !== undefined) {
        // A run of consecutive committed records: copy their bytes as they are.
        let end = slot + 1;
        while (end < count && fileSlots[end] === fileSlot + (end - slot)) end += 1;
        const lastFileSlot = fileSlot + (end - slot);
        for (let index = slot; index < end; index += 1) {
          const from = fileSlot + (index - slot);
          contentOffsets[index] = content.bytes + ((file.contentOffsets[from] as number) - (file.contentOffsets[fileSlot] as number));
          metadataOffsets[index] =
            metadata.bytes + ((file.metadataOffsets[from] as number) - (file.metadataOffsets[fileSlot] as number));
        }
        await copyRange(file, "content", fileSlot, lastFileSlot, content);
        await copyRange(file, "metadata", fileSlot, lastFileSlot, metadata);
        slot = end;
      } else {
        const record = memory[slot];
        contentOffsets[slot] = content.bytes;
        metadataOffsets[slot] = metadata.bytes;
        await content.write(Buffer.from(record?.content ?? "", "utf8"));
        await metadata.write(Buffer.from(record?.metadataText ?? "{}", "utf8"));
        await metadata.write(comma);
        slot += 1;
      }
    }
    contentOffsets[count] = content.bytes;
    metadataOffsets[count] = metadata.bytes;
    const contentWriter = content;
    content = undefined;
    files.content = await contentWriter.finish();
    const metadataWriter = metadata;
    metadata = undefined;
    files.metadata = await metadataWriter.finish();
  } catch (error) {
    // Whatever was opened is closed, also when the second file could not be created.
    await content?.abandon();
    await metadata?.abandon();
    throw error;
  }
  files.offsets = await writeWhole(directory, name("offsets"), [bytesOf(contentOffsets), bytesOf(metadataOffsets)], created);

  const documents = countDocuments(snapshot.docIds);
  const manifest: IndexManifest = {
    format: indexFormat,
    formatVersion: indexFormatVersion,
    generation,
    id: commitId,
    committedAt: new Date().toISOString(),
    chunks: count,
    documents,
    terms: lexical.terms.length,
    postings: lexical.postingSlots.length,
    totalLength: lexical.totalLength,
    analyzer: { version: analyzerVersion },
    bm25: { k1: bm25K1, b: bm25B },
    embedder: snapshot.vectors === undefined ? null : embedder,
    vectors: snapshot.vectors === undefined ? null : { encoding: "int8", stride: snapshot.vectors.stride },
    files: files as IndexManifest["files"],
  };
  return { manifest, contentOffsets, metadataOffsets };
}

async function copyRange(
  file: FileRecords,
  kind: "content" | "metadata",
  fromSlot: number,
  toSlot: number,
  writer: HashedFileWriter,
): Promise<void> {
  const offsets = kind === "content" ? file.contentOffsets : file.metadataOffsets;
  let position = offsets[fromSlot] as number;
  const end = offsets[toSlot] as number;
  while (position < end) {
    const length = Math.min(copyChunkBytes, end - position);
    await writer.write(file.readBytes(kind, position, length));
    position += length;
  }
}

/** Distinct documents: distinct doc ids, plus one per record without one. */
export function countDocuments(docIds: ReadonlyArray<string | null>): number {
  const seen = new Set<string>();
  let without = 0;
  for (const docId of docIds) {
    if (docId === null) without += 1;
    else seen.add(docId);
  }
  return seen.size + without;
}

/** The manifest of a folder, or undefined when it has none. Throws `CorruptIndexError` when it is unreadable. */
export function readManifest(directory: string): IndexManifest | undefined {
  let text: string;
  try {
    text = readFileSync(join(directory, manifestFileName), "utf8");
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CorruptIndexError({ directory, reason: `${manifestFileName} is not valid JSON`, cause: error });
  }
  if (typeof json === "object" && json !== null && "formatVersion" in json) {
    const version = (json as { formatVersion: unknown }).formatVersion;
    if (typeof version === "number" && version > indexFormatVersion) {
      throw new CorruptIndexError({
        directory,
        reason: `it has format version ${version}, newer than this library reads (${indexFormatVersion}); upgrade @lookup-knowledge/search-port`,
      });
    }
  }
  const parsed = indexManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
    throw new CorruptIndexError({ directory, reason: `${manifestFileName} is malformed${where}: ${issue?.message ?? "invalid"}` });
  }
  return parsed.data;
}

export function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT";
}

/** A data file was missing: the caller may re-read the manifest (a writer may have moved on) and retry. */
export class MissingDataFileError extends Error {}

function readChecked(directory: string, entry: IndexFileEntry): Buffer {
  let data: Buffer;
  try {
    data = readFileSync(join(directory, entry.name));
  } catch (error) {
    if (isMissing(error)) throw new MissingDataFileError(entry.name);
    throw error;
  }
  checkEntry(directory, entry, data.length, createHash("sha256").update(data).digest("hex"));
  return data;
}

function checkEntry(directory: string, entry: IndexFileEntry, bytes: number, sha256: string | undefined): void {
  if (bytes !== entry.bytes) {
    throw new CorruptIndexError({ directory, reason: `${entry.name} has ${bytes} bytes, the manifest says ${entry.bytes}` });
  }
  if (sha256 !== undefined && sha256 !== entry.sha256) {
    throw new CorruptIndexError({ directory, reason: `${entry.name} does not match its checksum in the manifest` });
  }
}

function typedView<T>(data: Buffer, byteOffset: number, length: number, bytesPerElement: number, make: (buffer: ArrayBuffer, offset: number, length: number) => T): T {
  const absolute = data.byteOffset + byteOffset;
  if (absolute % bytesPerElement === 0) return make(data.buffer as ArrayBuffer, absolute, length);
  const copy = new Uint8Array(length * bytesPerElement);
  copy.set(data.subarray(byteOffset, byteOffset + length * bytesPerElement));
  return make(copy.buffer, 0, length);
}

/**
 * Loads a committed generation. Index files (keys, lexicon, postings, offsets, vectors)
 * are read whole and checked against the manifest's sizes and SHA-256 checksums; content
 * and metadata stay on disk and are read on demand, but are hashed once now, through the
 * descriptors later reads use, and checked against the manifest too (a flipped byte is a
 * `CorruptIndexError` at open, never garbled evidence). Vectors are loaded only when
 * `loadVectors` is set.
 */
export function loadGeneration(directory: string, manifest: IndexManifest, loadVectors: boolean): IndexSnapshot {
  const { files } = manifest;
  const count = manifest.chunks;
  const fail = (reason: string): never => {
    throw new CorruptIndexError({ directory, reason });
  };

  const keysText = readChecked(directory, files.keys).toString("utf8");
  let keys: unknown;
  try {
    keys = JSON.parse(keysText);
  } catch (error) {
    throw new CorruptIndexError({ directory, reason: `${files.keys.name} is not valid JSON`, cause: error });
  }
  const { ids, docIds } = (keys ?? {}) as { ids?: unknown; docIds?: unknown };
  if (!Array.isArray(ids) || ids.length !== count || !ids.every((id) => typeof id === "string")) {
    fail(`${files.keys.name} does not hold ${count} record ids`);
  }
  if (!Array.isArray(docIds) || docIds.length !== count || !docIds.every((id) => id === null || typeof id === "string")) {
    fail(`${files.keys.name} does not hold ${count} document ids`);
  }

  const termsText = readChecked(directory, files.terms).toString("utf8");
  const terms = manifest.terms === 0 ? [] : termsText.split("\n");
  if (terms.length !== manifest.terms) fail(`${files.terms.name} does not hold ${manifest.terms} terms`);

  const postings = readChecked(directory, files.postings);
  const termCount = manifest.terms;
  const postingCount = manifest.postings;
  const expected = 4 * (termCount + 1) + 4 * postingCount + 4 * count + 2 * postingCount;
  if (postings.length !== expected) fail(`${files.postings.name} has ${postings.length} bytes, expected ${expected}`);
  let offset = 0;
  const termStarts = typedView(postings, offset, termCount + 1, 4, (b, o, l) => new Uint32Array(b, o, l));
  offset += 4 * (termCount + 1);
  const postingSlots = typedView(postings, offset, postingCount, 4, (b, o, l) => new Uint32Array(b, o, l));
  offset += 4 * postingCount;
  const lengths = typedView(postings, offset, count, 4, (b, o, l) => new Uint32Array(b, o, l));
  offset += 4 * count;
  const postingFrequencies = typedView(postings, offset, postingCount, 2, (b, o, l) => new Uint16Array(b, o, l));
  if (termStarts[0] !== 0 || termStarts[termCount] !== postingCount) fail(`${files.postings.name} has inconsistent term starts`);

  const offsetsData = readChecked(directory, files.offsets);
  if (offsetsData.length !== 16 * (count + 1)) fail(`${files.offsets.name} does not hold ${count + 1} offsets per file`);
  const contentOffsets = typedView(offsetsData, 0, count + 1, 8, (b, o, l) => new Float64Array(b, o, l));
  const metadataOffsets = typedView(offsetsData, 8 * (count + 1), count + 1, 8, (b, o, l) => new Float64Array(b, o, l));

  let vectors: DenseMatrix | undefined;
  if (loadVectors && manifest.embedder !== null && manifest.vectors !== null && files.vectors !== undefined) {
    vectors = readVectors(directory, files.vectors, count, manifest.embedder.dimension, manifest.vectors.stride);
  }

  if (contentOffsets[count] !== files.content.bytes || metadataOffsets[count] !== files.metadata.bytes) {
    fail(`${files.offsets.name} does not match the sizes of the content and metadata files`);
  }
  const records = openRecordFiles(directory, manifest, contentOffsets, metadataOffsets, true);
  const fileSlots = new Int32Array(count);
  for (let slot = 0; slot < count; slot += 1) fileSlots[slot] = slot;
  return {
    count,
    ids: ids as string[],
    docIds: docIds as Array<string | null>,
    lexical: { terms, termStarts, postingSlots, postingFrequencies, lengths, totalLength: manifest.totalLength },
    vectors,
    records: { file: records, fileSlots, memory: [] },
  };
}

/**
 * Opens the content and metadata files of `manifest` for reading on demand. Throws
 * `MissingDataFileError` when one is missing and `CorruptIndexError` when its size (or,
 * with `verify`, its checksum) differs from the manifest; nothing stays open when it throws.
 * A writer opening the files it has just written and hashed passes no `verify`.
 */
export function openRecordFiles(
  directory: string,
  manifest: IndexManifest,
  contentOffsets: Float64Array,
  metadataOffsets: Float64Array,
  verify = false,
): FileRecords {
  const { content, metadata } = manifest.files;
  const contentDescriptor = openData(directory, content, verify);
  try {
    const metadataDescriptor = openData(directory, metadata, verify);
    return new FileRecords(directory, {
      contentDescriptor,
      metadataDescriptor,
      contentName: content.name,
      metadataName: metadata.name,
      contentOffsets,
      metadataOffsets,
      metadataSha256: metadata.sha256,
    });
  } catch (error) {
    closeSync(contentDescriptor);
    throw error;
  }
}

/** Opens a data file for reading; a missing one is a `MissingDataFileError`. */
function openExisting(directory: string, name: string): number {
  try {
    return openSync(join(directory, name), "r");
  } catch (error) {
    if (isMissing(error)) throw new MissingDataFileError(name);
    throw error;
  }
}

function openData(directory: string, entry: IndexFileEntry, verify: boolean): number {
  const descriptor = openExisting(directory, entry.name);
  try {
    checkEntry(directory, entry, fstatSync(descriptor).size, undefined);
    if (verify) verifyDataFile(descriptor, directory, entry);
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
  return descriptor;
}

function readVectors(directory: string, entry: IndexFileEntry, count: number, dimension: number, stride: number): DenseMatrix {
  if (stride !== strideFor(dimension)) {
    throw new CorruptIndexError({ directory, reason: `${entry.name} has rows of ${stride} bytes for ${dimension} dimensions` });
  }
  const expected = 4 * count + count * stride;
  const descriptor = openExisting(directory, entry.name);
  try {
    const { size } = fstatSync(descriptor);
    checkEntry(directory, entry, size, undefined);
    if (size !== expected) throw new CorruptIndexError({ directory, reason: `${entry.name} has ${size} bytes, expected ${expected}` });
    const matrix = new DenseMatrix(count, dimension);
    const hash = createHash("sha256");
    const norms = new Uint8Array(matrix.inverseNorms.buffer, matrix.inverseNorms.byteOffset, matrix.inverseNorms.byteLength);
    readFully(descriptor, norms, 0, directory, entry.name);
    hash.update(norms);
    const rows = matrix.rowBytes();
    readFully(descriptor, rows, norms.length, directory, entry.name);
    hash.update(rows);
    checkEntry(directory, entry, size, hash.digest("hex"));
    return matrix;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Removes data files no manifest refers to and manifest temporaries: leftovers of old,
 * failed or crashed commits. Only files that are certainly nobody's work in progress go:
 * those in `removable` (files this writer created, or of a generation it superseded), and
 * files not modified for longer than the lock's stale time `staleMs` (a writer that is
 * still writing a file keeps changing it, and one that stopped for that long has lost its
 * lock). A recent unreferenced file may be another writer's, one that lost the lock but
 * does not know it yet: it is left alone. Best effort: a file that cannot be removed now
 * (a platform that keeps files open by readers) is left for the next commit or writer.
 * Removed names are taken out of `removable`.
 */
export function removeUnreferencedFiles(
  directory: string,
  manifest: IndexManifest | undefined,
  removable: Set<string>,
  staleMs: number,
): void {
  const keep = new Set<string>(manifest === undefined ? [] : Object.values(manifest.files).map((entry) => entry.name));
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  const present = new Set(names);
  for (const name of removable) if (!present.has(name)) removable.delete(name);
  const staleBefore = Date.now() - staleMs;
  for (const name of names) {
    if (!ownedFilePattern.test(name) || keep.has(name)) continue;
    if (!removable.has(name)) {
      try {
        if (statSync(join(directory, name)).mtimeMs >= staleBefore) continue;
      } catch {
        continue;
      }
    }
    try {
      rmSync(join(directory, name), { force: true });
      removable.delete(name);
    } catch {
      // Left for later.
    }
  }
}

/** Removes exactly `names` (best effort): the files of one failed commit. */
export function removeFiles(directory: string, names: Iterable<string>): void {
  for (const name of names) {
    try {
      rmSync(join(directory, name), { force: true });
    } catch {
      // Left for a later clean-up, once it is older than the stale time.
    }
  }
}

/** Creates `name` (it must not exist), writes `text` and fsyncs it; adds it to `created` once it exists. */
export function writeNewFileSync(directory: string, name: string, text: string, created: string[]): void {
  const descriptor = openSync(join(directory, name), "wx");
  created.push(name);
  try {
    const data = Buffer.from(text, "utf8");
    let done = 0;
    while (done < data.length) done += writeSync(descriptor, data, done, data.length - done);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** Best effort: makes a rename in `directory` durable. */
export function syncDirectory(directory: string): void {
  try {
    const descriptor = openSync(directory, "r");
    try {
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    // Not every platform can open a directory; the rename is still atomic.
  }
}

/** The manifest as it is written. */
export function manifestText(manifest: IndexManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Bytes of a committed generation: its data files and the manifest. */
export function manifestBytes(manifest: IndexManifest): number {
  let total = Buffer.byteLength(manifestText(manifest), "utf8");
  for (const entry of Object.values(manifest.files)) total += entry.bytes;
  return total;
}
