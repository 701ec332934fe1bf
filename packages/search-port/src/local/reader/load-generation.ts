import { createHash } from "node:crypto";
import { closeSync, fstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkFileEntry } from "../format/check-file-entry.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { DenseMatrix, strideFor } from "../dense/dense-matrix.js";
import { readFully } from "../format/file-records.js";
import type { IndexFileEntry, IndexManifest } from "../format/index-manifest.js";
import { memorySnapshot } from "../snapshot/index-snapshot.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { isMissing } from "../format/is-missing.js";
import { MissingDataFileError } from "../errors/missing-data-file-error.js";
import { openExistingFile } from "../format/open-existing-file.js";
import { openRecordFiles } from "../format/open-record-files.js";

/**
 * Loads a committed generation of format 1 to 3 (format 4: load-lazy-generation.ts). Index files (keys, lexicon, postings, offsets, vectors)
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
  return memorySnapshot({
    count,
    ids: ids as string[],
    docIds: docIds as Array<string | null>,
    lexical: { terms, termStarts, postingSlots, postingFrequencies, lengths, totalLength: manifest.totalLength },
    vectors,
    records: { file: records, fileSlots, memory: [] },
  });
}

function readChecked(directory: string, entry: IndexFileEntry): Buffer {
  let data: Buffer;
  try {
    data = readFileSync(join(directory, entry.name));
  } catch (error) {
    if (isMissing(error)) throw new MissingDataFileError(entry.name);
    throw error;
  }
  checkFileEntry(directory, entry, data.length, createHash("sha256").update(data).digest("hex"));
  return data;
}

function typedView<T>(
  data: Buffer,
  byteOffset: number,
  length: number,
  bytesPerElement: number,
  make: (buffer: ArrayBuffer, offset: number, length: number) => T,
): T {
  const absolute = data.byteOffset + byteOffset;
  if (absolute % bytesPerElement === 0) return make(data.buffer as ArrayBuffer, absolute, length);
  const copy = new Uint8Array(length * bytesPerElement);
  copy.set(data.subarray(byteOffset, byteOffset + length * bytesPerElement));
  return make(copy.buffer, 0, length);
}

function readVectors(directory: string, entry: IndexFileEntry, count: number, dimension: number, stride: number): DenseMatrix {
  if (stride !== strideFor(dimension)) {
    throw new CorruptIndexError({ directory, reason: `${entry.name} has rows of ${stride} bytes for ${dimension} dimensions` });
  }
  const expected = 4 * count + count * stride;
  const descriptor = openExistingFile(directory, entry.name);
  try {
    const { size } = fstatSync(descriptor);
    checkFileEntry(directory, entry, size, undefined);
    if (size !== expected) throw new CorruptIndexError({ directory, reason: `${entry.name} has ${size} bytes, expected ${expected}` });
    const matrix = new DenseMatrix(count, dimension);
    const hash = createHash("sha256");
    const norms = new Uint8Array(matrix.inverseNorms.buffer, matrix.inverseNorms.byteOffset, matrix.inverseNorms.byteLength);
    readFully(descriptor, norms, 0, directory, entry.name);
    hash.update(norms);
    const rows = matrix.rowBytes();
    readFully(descriptor, rows, norms.length, directory, entry.name);
    hash.update(rows);
    checkFileEntry(directory, entry, size, hash.digest("hex"));
    return matrix;
  } finally {
    closeSync(descriptor);
  }
}
