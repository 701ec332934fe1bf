import { recordMetadata } from "./index-snapshot.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import { MetadataKeyCounts } from "./metadata-key-counts.js";

/**
 * The metadata key counts of `snapshot`'s records. With `committed`, the counts of every
 * record of the committed files the snapshot reads from (`records.file`), only the changes
 * are counted: committed records the snapshot no longer holds out, records in memory in; so a
 * commit that changes a few documents of a million chunks reads a few records. Without it (an
 * index of format 5 or older, or none committed), every record is read. `committed` is
 * changed and returned.
 */
export function countMetadataKeys(committed: MetadataKeyCounts | undefined, snapshot: IndexSnapshot, directory: string): MetadataKeyCounts {
  const { file, fileSlots, memory } = snapshot.records;
  if (committed === undefined || file === undefined) {
    const counts = new MetadataKeyCounts();
    // Committed records in one pass over their file; records in memory parsed one by one and let go.
    const committed = file?.allMetadata();
    for (let slot = 0; slot < snapshot.count; slot += 1) {
      const fileSlot = fileSlots[slot] ?? -1;
      counts.apply(
        fileSlot >= 0 && committed !== undefined ? (committed[fileSlot] ?? {}) : recordMetadata(snapshot.records, slot, directory),
        1,
      );
    }
    return counts;
  }
  const kept = new Uint8Array(file.count);
  for (let slot = 0; slot < snapshot.count; slot += 1) {
    const fileSlot = fileSlots[slot] ?? -1;
    if (fileSlot >= 0) kept[fileSlot] = 1;
    else if (memory[slot] !== undefined) committed.apply(recordMetadata(snapshot.records, slot, directory), 1);
  }
  for (let fileSlot = 0; fileSlot < file.count; fileSlot += 1) {
    if (kept[fileSlot] === 0) committed.apply(file.metadata(fileSlot), -1);
  }
  return committed;
}
