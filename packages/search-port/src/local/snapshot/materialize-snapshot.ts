import { FileRecords } from "../format/file-records.js";
import { memorySnapshot } from "./index-snapshot.js";
import type { IndexSnapshot } from "./index-snapshot.js";

/**
 * A snapshot read from its files (a format-4 generation opened lazily) turned into one held
 * in memory, as a writer needs it: keys, lexicon and vectors read whole, every byte of
 * content and metadata checked, the offsets in memory. The result owns the files of
 * `snapshot`.
 */
export function materializeSnapshot(snapshot: IndexSnapshot): IndexSnapshot {
  const { ids, docIds } = snapshot.keys.arrays();
  const lexical = snapshot.lexicon.arrays();
  const vectors = snapshot.vectors;
  const committed = snapshot.records.file;
  const file = committed instanceof FileRecords ? committed.checkedInMemory() : committed;
  return memorySnapshot({
    count: snapshot.count,
    ids,
    docIds,
    lexical,
    vectors,
    records: { ...snapshot.records, file },
  });
}
