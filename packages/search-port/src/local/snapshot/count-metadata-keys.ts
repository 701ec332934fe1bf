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

/** Every record's counts: committed records in one pass over their files, records in memory parsed one by one and let go. */
function countAll(snapshot: IndexSnapshot, directory: string): MetadataKeyCounts {
  const { file, fileSlots } = snapshot.records;
  const counts = new MetadataKeyCounts();
  const all = file?.allMetadata();
  for (let slot = 0; slot < snapshot.count; slot += 1) {
    const fileSlot = fileSlots[slot] ?? -1;
    counts.apply(fileSlot >= 0 && all !== undefined ? (all[fileSlot] ?? {}) : recordMetadata(snapshot.records, slot, directory), 1);
  }
  return counts;
}
