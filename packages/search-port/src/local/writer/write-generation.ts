import { analyzerVersion } from "@lookup-knowledge/text";
import { bm25B, bm25K1 } from "../lexical/bm25.js";
import { checksumBlockBytes, checksummedKinds, writtenBlockHash } from "../format/block-checksums.js";
import { countDocuments } from "../snapshot/count-documents.js";
import { encodeTermEnds } from "../lexical/file-lexicon.js";
import { encodeKeys } from "../format/keys-file.js";
import type { FileRecords } from "../format/file-records.js";
import { HashedFileWriter, writeWholeFile } from "../format/hashed-file-writer.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { encodeScoreBounds } from "../lexical/stored-score-bounds.js";
import { boundBlockPostings } from "../lexical/term-score-bounds.js";
import { lengthNorms } from "../lexical/weigh-query-terms.js";
import type { EmbedderIdentity } from "../port/local-search-port.js";
import { generationFileName, indexFormat, indexFormatVersion } from "../format/index-manifest.js";
import type { IndexFileEntry, IndexFileKind, IndexManifest } from "../format/index-manifest.js";

const copyChunkBytes = 4 * 1024 * 1024;

function bytesOf(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
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
  const { count } = snapshot;
  const lexical = snapshot.lexicon.arrays();
  const { ids, docIds } = snapshot.keys.arrays();
  const files: Partial<Record<IndexFileKind, IndexFileEntry>> = {};
  const blocks: Partial<Record<IndexFileKind, Buffer>> = {};
  const name = (kind: IndexFileKind) => generationFileName(generation, commitId, kind);
  const whole = async (kind: IndexFileKind, data: Uint8Array[]) => {
    const written = await writeWholeFile(directory, name(kind), data, created);
    files[kind] = written.entry;
    blocks[kind] = written.blocks;
  };

  await whole("keys", encodeKeys(ids, docIds));
  await whole("terms", [Buffer.from(lexical.terms.join("\n"), "utf8")]);
  await whole("postings", [
    bytesOf(lexical.termStarts),
    bytesOf(lexical.postingSlots),
    bytesOf(lexical.lengths),
    bytesOf(lexical.postingFrequencies),
    encodeTermEnds(lexical.terms),
  ]);
  await whole("bounds", encodeScoreBounds(lexical, lengthNorms(snapshot)));
  const vectors = snapshot.vectors;
  if (vectors !== undefined) await whole("vectors", [bytesOf(vectors.inverseNorms), vectors.rowBytes()]);

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
          contentOffsets[index] = content.bytes + (file.offset("content", from) - file.offset("content", fileSlot));
          metadataOffsets[index] = metadata.bytes + (file.offset("metadata", from) - file.offset("metadata", fileSlot));
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
    blocks.content = contentWriter.blockChecksums();
    const metadataWriter = metadata;
    metadata = undefined;
    files.metadata = await metadataWriter.finish();
    blocks.metadata = metadataWriter.blockChecksums();
  } catch (error) {
    // Whatever was opened is closed, also when the second file could not be created.
    await content?.abandon();
    await metadata?.abandon();
    throw error;
  }
  await whole("offsets", [bytesOf(contentOffsets), bytesOf(metadataOffsets)]);
  // Last: the block checksums of all the files above, in the order `checksummedKinds` lists.
  const checksums = checksummedKinds.flatMap((kind) => (blocks[kind] === undefined ? [] : [blocks[kind]]));
  files.blocks = (await writeWholeFile(directory, name("blocks"), checksums, created)).entry;

  const documents = countDocuments(docIds);
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
    blockBytes: checksumBlockBytes,
    blockHash: writtenBlockHash,
    boundBlockPostings,
    analyzer: { version: analyzerVersion },
    bm25: { k1: bm25K1, b: bm25B },
    embedder: vectors === undefined ? null : embedder,
    vectors: vectors === undefined ? null : { encoding: "int8", stride: vectors.stride },
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
  let position = file.offset(kind, fromSlot);
  const end = file.offset(kind, toSlot);
  while (position < end) {
    const length = Math.min(copyChunkBytes, end - position);
    await writer.write(file.readBytes(kind, position, length));
    position += length;
  }
}
