import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import type { FileRecords } from "../format/file-records.js";
import type { SegmentPart } from "../segments/segment-part.js";
import { recordMetadata } from "./index-snapshot.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import { MetadataKeyCounts } from "./metadata-key-counts.js";

/** A segment as the key counts see it: whether the last commit listed it, and the deletions it listed then. */
export interface CountedSegment extends SegmentPart {
  committed: boolean;
  committedDeleted: Uint8Array | undefined;
}

/**
 * The metadata key counts of the live records of `segments` (composed: `snapshot`). With
 * `committed`, the counts the last commit kept, only the changes since are counted: records
 * of committed segments deleted since out, live records of segments written or held since in;
 * so a commit that changes a few documents of a million chunks reads a few records. Without
 * it (an index of format 5 or older, or none committed), every record is read. `committed` is
 * changed and returned.
 */
export function countMetadataKeys(
  committed: MetadataKeyCounts | undefined,
  segments: readonly CountedSegment[],
  snapshot: IndexSnapshot,
  directory: string,
): MetadataKeyCounts {
  if (committed === undefined) return countAll(snapshot, directory);
  for (const { snapshot: part, deleted, committed: listed, committedDeleted } of segments) {
    if (listed && deleted === committedDeleted) continue;
    for (let slot = 0; slot < part.count; slot += 1) {
      if (listed) {
        if (deleted?.[slot] === 1 && committedDeleted?.[slot] !== 1) committed.apply(recordMetadata(part.records, slot, directory), -1);
      } else if (deleted?.[slot] !== 1) {
        committed.apply(recordMetadata(part.records, slot, directory), 1);
      }
    }
  }
  return committed;
}

/** Committed records parsed at a time when every record is counted: their metadata is read and parsed by the run, then let go. */
const runRecords = 4096;

/**
 * Every record's counts: committed records read from their files in runs of up to
 * `runRecords` that lie back to back in one segment's metadata file, each run parsed at once
 * and let go (never the whole index's metadata held: a fresh build of a million records
 * counts them all at its first commit); records in memory parsed one by one.
 */
function countAll(snapshot: IndexSnapshot, directory: string): MetadataKeyCounts {
  const { file, fileSlots } = snapshot.records;
  const counts = new MetadataKeyCounts();
  let slot = 0;
  while (slot < snapshot.count) {
    const fileSlot = fileSlots[slot] ?? -1;
    if (fileSlot < 0 || file === undefined) {
      counts.apply(recordMetadata(snapshot.records, slot, directory), 1);
      slot += 1;
      continue;
    }
    const first = file.locate(fileSlot);
    let end = slot + 1;
    while (end < snapshot.count && end - slot < runRecords) {
      const next = fileSlots[end] ?? -1;
      if (next < 0) break;
      const at = file.locate(next);
      if (at.file !== first.file || at.slot !== first.slot + (end - slot)) break;
      end += 1;
    }
    for (const metadata of metadataRun(first.file, first.slot, first.slot + (end - slot), directory)) counts.apply(metadata, 1);
    slot = end;
  }
  return counts;
}

/** The metadata of slots `from` to `to` of one segment's files, read and parsed at once (each object is stored followed by a comma). */
function metadataRun(file: FileRecords, from: number, to: number, directory: string): Array<Record<string, unknown>> {
  const text = file.metadataRunText(from, to);
  let parsed: unknown;
  try {
    parsed = JSON.parse(`[${text}]`);
  } catch (error) {
    throw new CorruptIndexError({ directory, reason: "a record's metadata is not valid JSON", cause: error });
  }
  const list = parsed as unknown[];
  if (list.length !== to - from || list.some((value) => typeof value !== "object" || value === null || Array.isArray(value))) {
    throw new CorruptIndexError({ directory, reason: `the metadata of records ${from} to ${to - 1} are not ${to - from} objects` });
  }
  return list as Array<Record<string, unknown>>;
}
