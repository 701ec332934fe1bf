import { analyzerVersion } from "@lookup-knowledge/text";
import { checksumBlockBytes, writtenBlockHash } from "../format/block-checksums.js";
import { indexFormat, indexFormatVersion } from "../format/index-manifest.js";
import type { IndexManifest } from "../format/index-manifest.js";
import { encodeKeyCounts } from "../format/key-counts-file.js";
import { encodeKeys } from "../format/keys-file.js";
import { bm25B, bm25K1 } from "../lexical/bm25.js";
import { encodeTermEnds } from "../lexical/file-lexicon.js";
import { encodeScoreBounds } from "../lexical/stored-score-bounds.js";
import { boundBlockPostings } from "../lexical/term-score-bounds.js";
import { lengthNorms } from "../lexical/weigh-query-terms.js";
import type { EmbedderIdentity } from "../port/local-search-port.js";
import { countDocuments } from "../snapshot/count-documents.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { MetadataKeyCounts } from "../snapshot/metadata-key-counts.js";
import { GenerationFiles } from "./generation-files.js";
import { writeRecordFiles } from "./write-record-files.js";
import type { RecordFileOffsets } from "./write-record-files.js";

/** A generation's data files as written, and the manifest that would describe them. */
export interface WrittenGeneration extends RecordFileOffsets {
  manifest: IndexManifest;
}

function bytesOf(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * Writes the data files of `generation` for `snapshot` (and `keyCounts`, its metadata key
 * counts) under names carrying `commitId`
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
  keyCounts: MetadataKeyCounts,
): Promise<WrittenGeneration> {
  const files = new GenerationFiles(directory, generation, commitId, created);
  await writeIndexFiles(files, snapshot);
  await files.writeWhole("facets", [encodeKeyCounts(keyCounts)]);
  const offsets = await writeRecordFiles(files, snapshot);
  await files.writeWhole("offsets", [bytesOf(offsets.contentOffsets), bytesOf(offsets.metadataOffsets)]);
  // Last: the block checksums of all the files above.
  await files.writeBlockChecksums();
  return { manifest: generationManifest(generation, commitId, snapshot, embedder, files), ...offsets };
}

/** The keys, terms, postings, score bounds and (when the snapshot has them) vectors files. */
async function writeIndexFiles(files: GenerationFiles, snapshot: IndexSnapshot): Promise<void> {
  const lexical = snapshot.lexicon.arrays();
  const { ids, docIds } = snapshot.keys.arrays();
  await files.writeWhole("keys", encodeKeys(ids, docIds));
  await files.writeWhole("terms", [Buffer.from(lexical.terms.join("\n"), "utf8")]);
  await files.writeWhole("postings", [
    bytesOf(lexical.termStarts),
    bytesOf(lexical.postingSlots),
    bytesOf(lexical.lengths),
    bytesOf(lexical.postingFrequencies),
    encodeTermEnds(lexical.terms),
  ]);
  await files.writeWhole("bounds", encodeScoreBounds(lexical, lengthNorms(snapshot)));
  const vectors = snapshot.vectors;
  if (vectors !== undefined) await files.writeWhole("vectors", [bytesOf(vectors.inverseNorms), vectors.rowBytes()]);
}

/** The manifest of the generation whose files `files` wrote. */
function generationManifest(
  generation: number,
  commitId: string,
  snapshot: IndexSnapshot,
  embedder: EmbedderIdentity | null,
  files: GenerationFiles,
): IndexManifest {
  const lexical = snapshot.lexicon.arrays();
  const vectors = snapshot.vectors;
  return {
    format: indexFormat,
    formatVersion: indexFormatVersion,
    generation,
    id: commitId,
    committedAt: new Date().toISOString(),
    chunks: snapshot.count,
    documents: countDocuments(snapshot.keys.arrays().docIds),
    terms: lexical.terms.length,
    postings: lexical.postingSlots.length,
    totalLength: lexical.totalLength,
    blockBytes: checksumBlockBytes,
    blockHash: writtenBlockHash,
    boundBlockPostings,
    analyzer: { version: analyzerVersion },
    bm25: { k1: bm25K1, b: bm25B },
    embedder: vectors === undefined ? null : embedder,
    vectors: vectors === undefined ? null : { encoding: "int8", stride: vectors.stride },
    files: files.entries as IndexManifest["files"],
  };
}
