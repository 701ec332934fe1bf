import { checksumBlockBytes } from "../format/block-checksums.js";
import type { BlockHash } from "../format/block-checksums.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import type { DenseMatrix } from "../dense/dense-matrix.js";
import { FileLexicon } from "../lexical/file-lexicon.js";
import { FileRecords } from "../format/file-records.js";
import type { RecordOffsets } from "../format/file-records.js";
import { bm25B, bm25K1 } from "../lexical/bm25.js";
import { StoredScoreBounds } from "../lexical/stored-score-bounds.js";
import { boundBlockPostings } from "../lexical/term-score-bounds.js";
import type { IndexFileEntry, IndexManifest } from "../format/index-manifest.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { SnapshotKeys } from "../snapshot/snapshot-keys.js";
import { FileKeys } from "../format/keys-file.js";
import type { VerifiedFile } from "../format/verified-file.js";
import { readBlockChecksums } from "./read-block-checksums.js";
import { readVerifiedVectors, readVerifiedVectorsInto, vectorRowsFile } from "./read-verified-vectors.js";
import { streamedMatrix } from "../dense/streamed-matrix.js";
import { firstScanRunsAlone } from "../dense/dense-scan-helper.js";
import { VerifiedFileSet } from "./verified-file-set.js";

/**
 * Opens a committed generation of format 4 or 5 without reading it: every data file is opened
 * and its size checked, and the block checksums (a few bytes per 64 KB of data) are read
 * and checked against the manifest. Keys, terms, postings, offsets, content and metadata
 * are then read by position as searches need them, each block checked the first time it is
 * read (verified-file.ts); the vectors are read whole the first time a search asks for
 * them, and only when `loadVectors` is set (a process's first exact dense scan streams them
 * instead: `streamedVectors`). So opening takes the same time at any size,
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
  const hash = checkedBlockHash(directory, manifest);
  const withVectors = loadVectors && manifest.embedder !== null && manifest.vectors !== null && files.vectors !== undefined;
  let opened: VerifiedFileSet | undefined;
  try {
    opened = new VerifiedFileSet(directory, manifest, readBlockChecksums(directory, files.blocks as IndexFileEntry, manifest, hash), hash);
    const keys = new FileKeys(opened.open("keys"), count);
    // Bounds stored with other BM25 parameters or another block size than this version's are
    // not used (a pass over the postings instead).
    const sameBounds = manifest.bm25.k1 === bm25K1 && manifest.bm25.b === bm25B && manifest.boundBlockPostings === boundBlockPostings;
    const bounds = files.bounds !== undefined && sameBounds ? new StoredScoreBounds(opened.open("bounds"), manifest.terms) : undefined;
    const lexicon = new FileLexicon(opened.open("postings"), opened.open("terms"), manifest, caches.postingsCacheBytes, bounds);
    const offsets = recordOffsets(directory, opened.open("offsets"), manifest);
    const content = opened.open("content");
    const metadata = opened.open("metadata");
    const vectorsFile = withVectors ? opened.open("vectors") : undefined;
    const records = new FileRecords(directory, {
      content,
      metadata,
      contentName: content.name,
      metadataName: metadata.name,
      count,
      offsets,
      metadataSha256: files.metadata.sha256,
      alsoClose: opened.opened.filter((file) => file !== content && file !== metadata),
    });
    return lazySnapshot(manifest, keys, lexicon, records, vectorsFile);
  } catch (error) {
    opened?.closeAll();
    throw error;
  }
}

/** The hash of the manifest's block checksums, once the manifest is checked to list what format 4 or 5 must. */
function checkedBlockHash(directory: string, manifest: IndexManifest): BlockHash {
  const fail = (reason: string): never => {
    throw new CorruptIndexError({ directory, reason });
  };
  if (manifest.files.blocks === undefined || manifest.blockBytes !== checksumBlockBytes) {
    fail(`the manifest of format ${manifest.formatVersion} lists no block checksums of ${checksumBlockBytes} bytes`);
  }
  // Format 4 checksummed its blocks with SHA-256 and said nothing; format 5 must name its hash.
  const hash: BlockHash =
    manifest.blockHash ??
    (manifest.formatVersion >= 5 ? fail(`the manifest of format ${manifest.formatVersion} names no block hash`) : "sha256");
  if (manifest.formatVersion >= 5 && (manifest.files.bounds === undefined || manifest.boundBlockPostings === undefined)) {
    fail(`the manifest of format ${manifest.formatVersion} lists no bounds file with its block size`);
  }
  return hash;
}

/** The records' offsets, read by position from the offsets file, checked against its size and those of the content and metadata files. */
function recordOffsets(directory: string, offsetsFile: VerifiedFile, manifest: IndexManifest): RecordOffsets {
  const count = manifest.chunks;
  const fail = (reason: string): never => {
    throw new CorruptIndexError({ directory, reason });
  };
  if (offsetsFile.size !== 16 * (count + 1)) fail(`${offsetsFile.name} does not hold ${count + 1} offsets per file`);
  const offset = (position: number): number => new Float64Array(offsetsFile.read(position, 8).buffer)[0] as number;
  const offsets: RecordOffsets = {
    content: (slot) => offset(8 * slot),
    metadata: (slot) => offset(8 * (count + 1) + 8 * slot),
    run: (kind, from, to) => {
      const start = 8 * (kind === "content" ? from : count + 1 + from);
      return new Float64Array(offsetsFile.read(start, 8 * (to - from + 1)).buffer, 0, to - from + 1);
    },
    all: () => {
      const table = offsetsFile.read(0, offsetsFile.size);
      return {
        content: new Float64Array(table.buffer, 0, count + 1),
        metadata: new Float64Array(table.buffer, 8 * (count + 1), count + 1),
      };
    },
  };
  if (offsets.content(count) !== manifest.files.content.bytes || offsets.metadata(count) !== manifest.files.metadata.bytes) {
    fail(`${offsetsFile.name} does not match the sizes of the content and metadata files`);
  }
  return offsets;
}

/**
 * The snapshot of an opened generation: every slot's record in the files, the vectors read on
 * first use (a process's first dense scan reads them chunk by chunk, `streamedVectors`; a later one whole).
 */
function lazySnapshot(
  manifest: IndexManifest,
  keys: SnapshotKeys,
  lexicon: FileLexicon,
  records: FileRecords,
  vectorsFile: VerifiedFile | undefined,
): IndexSnapshot {
  const count = manifest.chunks;
  let fileSlots: Int32Array | undefined;
  let matrix: DenseMatrix | undefined;
  let streamed = false;
  const { embedder, vectors } = manifest;
  const rows =
    vectorsFile === undefined || embedder === null || vectors === null
      ? undefined
      : vectorRowsFile(vectorsFile, count, embedder.dimension, vectors.stride);
  return {
    count,
    keys,
    lexicon,
    hasVectors: rows !== undefined,
    vectorRows: rows,
    streamedVectors(): DenseMatrix | undefined {
      if (matrix !== undefined || streamed || rows === undefined || !firstScanRunsAlone(count)) return undefined;
      streamed = true;
      return streamedMatrix([{ file: rows, firstRow: 0 }], count, rows.dimension);
    },
    get vectors(): DenseMatrix | undefined {
      if (vectorsFile === undefined || embedder === null || vectors === null) return undefined;
      matrix ??= readVerifiedVectors(vectorsFile, count, embedder.dimension, vectors.stride);
      return matrix;
    },
    readVectors(): DenseMatrix | undefined {
      if (matrix !== undefined || vectorsFile === undefined || embedder === null || vectors === null) return matrix;
      return readVerifiedVectors(vectorsFile, count, embedder.dimension, vectors.stride);
    },
    fileVectorDimension: vectorsFile === undefined || embedder === null || vectors === null ? undefined : embedder.dimension,
    readVectorsInto(target: DenseMatrix, firstRow: number): void {
      if (vectorsFile === undefined || embedder === null || vectors === null)
        throw new Error("readVectorsInto: this generation has no vectors file");
      if (matrix !== undefined) target.copyRows(matrix, 0, firstRow, count);
      else readVerifiedVectorsInto(vectorsFile, count, embedder.dimension, vectors.stride, target, firstRow);
    },
    // Every record is in the files, slot for slot. The table of that is built only when
    // something reads it whole (a filter, the stats, a merge): a search's hits ask slot by slot,
    // and building it for them was 3-5 ms of a cold query at 103,660 chunks (issue 36 item 5).
    records: {
      file: records,
      get fileSlots(): Int32Array {
        fileSlots ??= identitySlots(count);
        return fileSlots;
      },
      fileSlotOf: (slot: number): number => (Number.isInteger(slot) && slot >= 0 && slot < count ? slot : -1),
      memory: [],
    },
  };
}

/** 0, 1, ..., count - 1. */
function identitySlots(count: number): Int32Array {
  const slots = new Int32Array(count);
  for (let slot = 0; slot < count; slot += 1) slots[slot] = slot;
  return slots;
}
