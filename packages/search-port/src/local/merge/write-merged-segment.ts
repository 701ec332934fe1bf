import type { SegmentEntry } from "../format/segmented-manifest.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { lengthNorms } from "../lexical/length-norms.js";
import { composeSnapshot } from "../segments/compose-snapshot.js";
import type { SegmentPart } from "../segments/segment-part.js";
import { SlotMap } from "../segments/slot-map.js";
import { GenerationFiles } from "../writer/generation-files.js";
import { writeRecordFiles } from "../writer/write-record-files.js";
import type { WrittenSegment } from "../writer/write-segment.js";
import type { MergeInput } from "./merge-keys.js";
import { writeMergedKeys } from "./merge-keys.js";
import { mergeTerms, writeMergedPostings } from "./merge-lexicons.js";
import type { SlotMapping } from "./merge-lexicons.js";
import { openMergeSource } from "./merge-source.js";
import { mergedStride, writeMergedVectors } from "./merge-vectors.js";

function bytesOf(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * Writes the segment `writeSegment(composeSnapshot(run))` writes, byte for byte, without
 * composing it in memory: the segments' sorted terms are merged (a k-way merge) and each
 * term's postings read from their files in term order, slots renumbered past deleted records,
 * block bounds worked out per term as it is written; keys, vectors, content and metadata are
 * copied in runs of live records. What it holds grows with the vocabulary and with a few
 * bytes per record (lengths, norms, key ends), never with the postings, ids or vectors.
 * A written segment (`entry`) is read from its files (its vectors only with `vectorStride`,
 * the index's row size, `strideFor` its embedder's dimension; undefined: an index without);
 * one held in memory from its arrays. Every file created is added to `created`.
 */
export async function writeMergedSegment(
  directory: string,
  generation: number,
  segmentId: string,
  run: ReadonlyArray<SegmentPart & { entry?: SegmentEntry | undefined }>,
  vectorStride: number | undefined,
  created: string[],
): Promise<WrittenSegment> {
  const slots = new SlotMap(run);
  const kept = run.map((_, at) => at).filter((at) => slots.liveCount(at) > 0);
  const inputs: MergeInput[] = [];
  try {
    for (const at of kept) {
      const part = run[at] as SegmentPart & { entry?: SegmentEntry | undefined };
      inputs.push({ source: openMergeSource(directory, part, vectorStride), deleted: slots.hasDeletions(at) ? part.deleted : undefined });
    }
    const mappings: SlotMapping[] = kept.map((at) => ({ base: slots.bases[at] as number, composed: slots.composedTable(at) }));
    const files = new GenerationFiles(directory, generation, segmentId, created);
    const { lengths, totalLength } = mergedLengths(inputs, slots.count);
    const merged = mergeTerms(inputs, mappings);
    await writeWhole(files, "keys", (writer) => writeMergedKeys(writer, inputs));
    await files.writeWhole("terms", [Buffer.from(merged.terms.join("\n"), "utf8")]);
    const norms = lengthNorms({ count: slots.count, lexicon: { lengths: () => lengths, totalLength } } as unknown as IndexSnapshot);
    let boundsParts: Uint8Array[] = [];
    await writeWhole(files, "postings", async (writer) => {
      boundsParts = await writeMergedPostings(writer, inputs, mappings, merged, lengths, norms);
    });
    await files.writeWhole("bounds", boundsParts);
    const stride =
      vectorStride !== undefined || inputs.some(({ source }) => source.vectors !== undefined) ? mergedStride(inputs) : undefined;
    if (stride !== undefined) await writeWhole(files, "vectors", (writer) => writeMergedVectors(writer, inputs, stride));
    const offsets = await writeRecordFiles(files, composeSnapshot(run));
    await files.writeWhole("offsets", [bytesOf(offsets.contentOffsets), bytesOf(offsets.metadataOffsets)]);
    await files.writeBlockChecksums();
    const entry: SegmentEntry = {
      chunks: slots.count,
      deleted: 0,
      terms: merged.terms.length,
      postings: merged.postings,
      totalLength,
      files: files.entries as SegmentEntry["files"],
    };
    return { entry, ...offsets };
  } finally {
    for (const { source } of inputs) source.close();
  }
}

/** Writes the file of `kind` piece by piece through `body`; abandons it on failure. */
async function writeWhole(
  files: GenerationFiles,
  kind: "keys" | "postings" | "vectors",
  body: (writer: Awaited<ReturnType<GenerationFiles["create"]>>) => Promise<void>,
): Promise<void> {
  const writer = await files.create(kind);
  try {
    await body(writer);
  } catch (error) {
    await writer.abandon();
    throw error;
  }
  await files.finish(kind, writer);
}

/** The BM25 lengths of the live records, in merged order, and their sum. */
function mergedLengths(inputs: readonly MergeInput[], count: number): { lengths: Uint32Array; totalLength: number } {
  const lengths = new Uint32Array(count);
  let at = 0;
  let totalLength = 0;
  for (const { source, deleted } of inputs) {
    for (let slot = 0; slot < source.count; slot += 1) {
      if (deleted?.[slot] === 1) continue;
      const length = source.lengths[slot] as number;
      lengths[at] = length;
      totalLength += length;
      at += 1;
    }
  }
  return { lengths, totalLength };
}
