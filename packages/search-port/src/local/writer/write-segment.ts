import { encodeKeys } from "../format/keys-file.js";
import type { SegmentEntry } from "../format/segmented-manifest.js";
import { encodeTermEnds } from "../lexical/file-lexicon.js";
import { encodeScoreBounds } from "../lexical/stored-score-bounds.js";
import { lengthNorms } from "../lexical/length-norms.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { GenerationFiles } from "./generation-files.js";
import { writeRecordFiles } from "./write-record-files.js";
import type { RecordFileOffsets } from "./write-record-files.js";

/** A segment's data files as written, and its manifest entry. */
export interface WrittenSegment extends RecordFileOffsets {
  entry: SegmentEntry;
}

function bytesOf(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * Writes the data files of a segment holding `snapshot`'s records under names carrying
 * `generation` and `segmentId` (content and metadata are copied from committed files in runs
 * where they can be, so a commit never holds the records in memory twice) and returns its
 * manifest entry. Nothing refers to these files until a manifest lists them. Every file it
 * creates is added to `created`, also when it fails, so the caller can remove exactly those.
 */
export async function writeSegment(
  directory: string,
  generation: number,
  segmentId: string,
  snapshot: IndexSnapshot,
  created: string[],
): Promise<WrittenSegment> {
  const files = new GenerationFiles(directory, generation, segmentId, created);
  await writeIndexFiles(files, snapshot);
  const offsets = await writeRecordFiles(files, snapshot);
  await files.writeWhole("offsets", [bytesOf(offsets.contentOffsets), bytesOf(offsets.metadataOffsets)]);
  // Last: the block checksums of all the files above.
  await files.writeBlockChecksums();
  const lexical = snapshot.lexicon.arrays();
  const entry: SegmentEntry = {
    chunks: snapshot.count,
    deleted: 0,
    terms: lexical.terms.length,
    postings: lexical.postingSlots.length,
    totalLength: lexical.totalLength,
    files: files.entries as SegmentEntry["files"],
  };
  return { entry, ...offsets };
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
