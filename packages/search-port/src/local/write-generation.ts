import { analyzerVersion } from "@lookup-knowledge/text";
import { bm25B, bm25K1 } from "./bm25.js";
import { countDocuments } from "./count-documents.js";
import type { FileRecords } from "./file-records.js";
import { HashedFileWriter, writeWholeFile } from "./hashed-file-writer.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import type { EmbedderIdentity } from "./local-search-port.js";
import { generationFileName, indexFormat, indexFormatVersion } from "./index-manifest.js";
import type { IndexFileEntry, IndexFileKind, IndexManifest } from "./index-manifest.js";

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
  const { count, lexical } = snapshot;
  const files: Partial<Record<IndexFileKind, IndexFileEntry>> = {};
  const name = (kind: IndexFileKind) => generationFileName(generation, commitId, kind);

  files.keys = await writeWholeFile(
    directory,
    name("keys"),
    [Buffer.from(JSON.stringify({ ids: snapshot.ids, docIds: snapshot.docIds }), "utf8")],
    created,
  );
  files.terms = await writeWholeFile(directory, name("terms"), [Buffer.from(lexical.terms.join("\n"), "utf8")], created);
  files.postings = await writeWholeFile(
    directory,
    name("postings"),
    [bytesOf(lexical.termStarts), bytesOf(lexical.postingSlots), bytesOf(lexical.lengths), bytesOf(lexical.postingFrequencies)],
    created,
  );
  if (snapshot.vectors !== undefined) {
    files.vectors = await writeWholeFile(
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
          metadataOffsets[index] = metadata.bytes + ((file.metadataOffsets[from] as number) - (file.metadataOffsets[fileSlot] as number));
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
  files.offsets = await writeWholeFile(directory, name("offsets"), [bytesOf(contentOffsets), bytesOf(metadataOffsets)], created);

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
