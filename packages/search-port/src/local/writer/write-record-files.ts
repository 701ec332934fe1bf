import type { FileRecords } from "../format/file-records.js";
import type { HashedFileWriter } from "../format/hashed-file-writer.js";
import type { RecordFile } from "../format/record-file.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { GenerationFiles } from "./generation-files.js";

const copyChunkBytes = 4 * 1024 * 1024;

/** Where each slot's content and metadata start in the files written, and where they end (`count + 1` entries each). */
export interface RecordFileOffsets {
  contentOffsets: Float64Array;
  metadataOffsets: Float64Array;
}

/**
 * Writes the content and metadata files of `snapshot`'s records: runs of committed records
 * that lie back to back in one generation's files are copied from them as they are (so a commit never holds the whole corpus
 * in memory twice), records in memory are written one by one. Returns the offsets.
 */
export async function writeRecordFiles(files: GenerationFiles, snapshot: IndexSnapshot): Promise<RecordFileOffsets> {
  const { count } = snapshot;
  const offsets: RecordFileOffsets = { contentOffsets: new Float64Array(count + 1), metadataOffsets: new Float64Array(count + 1) };
  let content: HashedFileWriter | undefined;
  let metadata: HashedFileWriter | undefined;
  try {
    content = await files.create("content");
    metadata = await files.create("metadata");
    const { file, fileSlots, memory } = snapshot.records;
    let slot = 0;
    while (slot < count) {
      const fileSlot = fileSlots[slot] ?? -1;
      if (fileSlot >= 0 && file !== undefined) {
        slot = await copyCommittedRun(file, fileSlots, slot, count, { content, metadata }, offsets);
      } else {
        const record = memory[slot];
        offsets.contentOffsets[slot] = content.bytes;
        offsets.metadataOffsets[slot] = metadata.bytes;
        await writeText(content, record?.content ?? "");
        await writeText(metadata, `${record?.metadataText ?? "{}"},`);
        slot += 1;
      }
    }
    offsets.contentOffsets[count] = content.bytes;
    offsets.metadataOffsets[count] = metadata.bytes;
    const contentWriter = content;
    content = undefined;
    await files.finish("content", contentWriter);
    const metadataWriter = metadata;
    metadata = undefined;
    await files.finish("metadata", metadataWriter);
  } catch (error) {
    // Whatever was opened is closed, also when the second file could not be created.
    await content?.abandon();
    await metadata?.abandon();
    throw error;
  }
  return offsets;
}

/** Writes `text` as UTF-8: into the writer's buffer where it fits, with no buffer of its own (a first build writes a million records here). */
async function writeText(writer: HashedFileWriter, text: string): Promise<void> {
  if (!writer.bufferText(text)) await writer.write(Buffer.from(text, "utf8"));
}

/**
 * Copies the run of committed records that starts at `slot` and lies back to back in one
 * generation's files (`RecordFile.locate`) as its bytes are; returns the slot after it.
 */
async function copyCommittedRun(
  file: RecordFile,
  fileSlots: Int32Array,
  slot: number,
  count: number,
  writers: { content: HashedFileWriter; metadata: HashedFileWriter },
  offsets: RecordFileOffsets,
): Promise<number> {
  const first = file.locate(fileSlots[slot] as number);
  let end = slot + 1;
  while (end < count && continues(file, fileSlots[end] ?? -1, first, end - slot)) end += 1;
  const source = first.file;
  const lastFileSlot = first.slot + (end - slot);
  // The run's starts in one read per file (read one by one, a 1M-record merge made 4M reads).
  placeRun(source.offsetRun("content", first.slot, lastFileSlot), writers.content.bytes, offsets.contentOffsets, slot);
  placeRun(source.offsetRun("metadata", first.slot, lastFileSlot), writers.metadata.bytes, offsets.metadataOffsets, slot);
  await copyRange(source, "content", first.slot, lastFileSlot, writers.content);
  await copyRange(source, "metadata", first.slot, lastFileSlot, writers.metadata);
  return end;
}

/** Sets `target[at..]` to where each record of a run starts in the file written, `base` its first's; `starts` has one more entry, the run's end. */
function placeRun(starts: Float64Array, base: number, target: Float64Array, at: number): void {
  const first = starts[0] as number;
  for (let index = 0; index < starts.length - 1; index += 1) target[at + index] = base + ((starts[index] as number) - first);
}

/** Whether file slot `fileSlot` is stored right after the `steps` records that follow `first` in the same files. */
function continues(file: RecordFile, fileSlot: number, first: { file: FileRecords; slot: number }, steps: number): boolean {
  if (fileSlot < 0) return false;
  const at = file.locate(fileSlot);
  return at.file === first.file && at.slot === first.slot + steps;
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
