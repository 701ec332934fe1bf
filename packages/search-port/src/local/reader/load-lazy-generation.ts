import { createHash } from "node:crypto";
import { closeSync, fstatSync, readSync } from "node:fs";
import { blockCount, checksumBlockBytes, checksumBytes, checksummedKinds } from "../format/block-checksums.js";
import type { BlockHash } from "../format/block-checksums.js";
import { checkFileEntry } from "../format/check-file-entry.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { DenseMatrix, strideFor } from "../dense/dense-matrix.js";
import { FileLexicon } from "../lexical/file-lexicon.js";
import { FileRecords } from "../format/file-records.js";
import { bm25B, bm25K1 } from "../lexical/bm25.js";
import { StoredScoreBounds } from "../lexical/stored-score-bounds.js";
import { boundBlockPostings } from "../lexical/term-score-bounds.js";
import type { RecordOffsets } from "../format/file-records.js";
import type { IndexFileEntry, IndexFileKind, IndexManifest } from "../format/index-manifest.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { FileKeys } from "../format/keys-file.js";
import { openExistingFile } from "../format/open-existing-file.js";
import { VerifiedFile } from "../format/verified-file.js";

/**
 * Opens a committed generation of format 4 or 5 without reading it: every data file is opened
 * and its size checked, and the block checksums (a few bytes per 64 KB of data) are read
 * and checked against the manifest. Keys, terms, postings, offsets, content and metadata
 * are then read by position as searches need them, each block checked the first time it is
 * read (verified-file.ts); the vectors are read whole the first time a search asks for
 * them, and only when `loadVectors` is set. So opening takes the same time at any size,
 * and what stays in memory grows with what searches touch. A damaged byte is a
 * `CorruptIndexError` when a search first reads its block, never garbled evidence.
 */
export function loadLazyGeneration(
  directory: string,
  manifest: IndexManifest,
  loadVectors: boolean,
  caches: { postingsCacheBytes?: number | undefined } = {},
): IndexSnapshot {
  const { files } = manifest;
  const count = manifest.chunks;
  const fail = (reason: string): never => {
    throw new CorruptIndexError({ directory, reason });
  };
  if (files.blocks === undefined || manifest.blockBytes !== checksumBlockBytes) {
    fail(`the manifest of format ${manifest.formatVersion} lists no block checksums of ${checksumBlockBytes} bytes`);
  }
  // Format 4 checksummed its blocks with SHA-256 and said nothing; format 5 must name its hash.
  const hash: BlockHash =
    manifest.blockHash ??
    (manifest.formatVersion >= 5 ? fail(`the manifest of format ${manifest.formatVersion} names no block hash`) : "sha256");
  if (manifest.formatVersion >= 5 && (files.bounds === undefined || manifest.boundBlockPostings === undefined)) {
    fail(`the manifest of format ${manifest.formatVersion} lists no bounds file with its block size`);
  }
  const withVectors = loadVectors && manifest.embedder !== null && manifest.vectors !== null && files.vectors !== undefined;
  const opened: VerifiedFile[] = [];
  try {
    const checksums = readBlockChecksums(directory, files.blocks as IndexFileEntry, manifest, hash);
    const open = (kind: IndexFileKind): VerifiedFile => {
      const entry = files[kind] as IndexFileEntry;
      const descriptor = openExistingFile(directory, entry.name);
      try {
        checkFileEntry(directory, entry, fstatSync(descriptor).size, undefined);
      } catch (error) {
        closeSync(descriptor);
        throw error;
      }
      const file = new VerifiedFile(descriptor, directory, entry.name, entry.bytes, checksums.get(kind) ?? Buffer.alloc(0), hash);
      opened.push(file);
      return file;
    };
    const keys = new FileKeys(open("keys"), count);
    // Bounds stored with other BM25 parameters or another block size than this version's are
    // not used (a pass over the postings instead).
    const sameBounds = manifest.bm25.k1 === bm25K1 && manifest.bm25.b === bm25B && manifest.boundBlockPostings === boundBlockPostings;
    const bounds = files.bounds !== undefined && sameBounds ? new StoredScoreBounds(open("bounds"), manifest.terms) : undefined;
    const lexicon = new FileLexicon(open("postings"), open("terms"), manifest, caches.postingsCacheBytes, bounds);
    const offsetsFile = open("offsets");
    if (offsetsFile.size !== 16 * (count + 1)) fail(`${offsetsFile.name} does not hold ${count + 1} offsets per file`);
    const offset = (position: number): number => new Float64Array(offsetsFile.read(position, 8).buffer)[0] as number;
    const offsets: RecordOffsets = {
      content: (slot) => offset(8 * slot),
      metadata: (slot) => offset(8 * (count + 1) + 8 * slot),
      all: () => {
        const table = offsetsFile.read(0, offsetsFile.size);
        return {
          content: new Float64Array(table.buffer, 0, count + 1),
          metadata: new Float64Array(table.buffer, 8 * (count + 1), count + 1),
        };
      },
    };
    if (offsets.content(count) !== files.content.bytes || offsets.metadata(count) !== files.metadata.bytes) {
      fail(`${offsetsFile.name} does not match the sizes of the content and metadata files`);
    }
    const content = open("content");
    const metadata = open("metadata");
    const vectorsFile = withVectors ? open("vectors") : undefined;
    const records = new FileRecords(directory, {
      content,
      metadata,
      contentName: content.name,
      metadataName: metadata.name,
      count,
      offsets,
      metadataSha256: files.metadata.sha256,
      alsoClose: opened.filter((file) => file !== content && file !== metadata),
    });
    const fileSlots = new Int32Array(count);
    for (let slot = 0; slot < count; slot += 1) fileSlots[slot] = slot;
    let matrix: DenseMatrix | undefined;
    const { embedder, vectors } = manifest;
    return {
      count,
      keys,
      lexicon,
      get vectors(): DenseMatrix | undefined {
        if (vectorsFile === undefined || embedder === null || vectors === null) return undefined;
        matrix ??= readVectors(vectorsFile, count, embedder.dimension, vectors.stride);
        return matrix;
      },
      records: { file: records, fileSlots, memory: [] },
    };
  } catch (error) {
    for (const file of opened) file.close();
    throw error;
  }
}

/** The `blocks` file, checked whole against the manifest, cut into each data file's checksums. */
function readBlockChecksums(
  directory: string,
  entry: IndexFileEntry,
  manifest: IndexManifest,
  hash: BlockHash,
): Map<IndexFileKind, Buffer> {
  const descriptor = openExistingFile(directory, entry.name);
  let data: Buffer;
  try {
    checkFileEntry(directory, entry, fstatSync(descriptor).size, undefined);
    data = Buffer.allocUnsafe(entry.bytes);
    let done = 0;
    while (done < data.length) {
      const read = readSync(descriptor, data, done, data.length - done, done);
      if (read === 0) throw new CorruptIndexError({ directory, reason: `${entry.name} ends at byte ${done}, before its ${entry.bytes}` });
      done += read;
    }
  } finally {
    closeSync(descriptor);
  }
  checkFileEntry(directory, entry, data.length, createHash("sha256").update(data).digest("hex"));
  const parts = new Map<IndexFileKind, Buffer>();
  let at = 0;
  for (const kind of checksummedKinds) {
    const file = manifest.files[kind];
    if (file === undefined) continue;
    const bytes = blockCount(file.bytes) * checksumBytes(hash);
    parts.set(kind, data.subarray(at, at + bytes));
    at += bytes;
  }
  if (at !== data.length) {
    throw new CorruptIndexError({ directory, reason: `${entry.name} has ${data.length} bytes, the files it covers need ${at}` });
  }
  return parts;
}

function readVectors(file: VerifiedFile, count: number, dimension: number, stride: number): DenseMatrix {
  if (stride !== strideFor(dimension)) {
    throw new CorruptIndexError({
      directory: file.directory,
      reason: `${file.name} has rows of ${stride} bytes for ${dimension} dimensions`,
    });
  }
  const expected = 4 * count + count * stride;
  if (file.size !== expected) {
    throw new CorruptIndexError({ directory: file.directory, reason: `${file.name} has ${file.size} bytes, expected ${expected}` });
  }
  const matrix = new DenseMatrix(count, dimension);
  const norms = matrix.inverseNorms;
  file.readInto(new Uint8Array(norms.buffer, norms.byteOffset, norms.byteLength), 0);
  file.readInto(matrix.rowBytes(), norms.byteLength);
  return matrix;
}
