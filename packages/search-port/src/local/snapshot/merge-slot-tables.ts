import type { IndexSnapshot, LexicalIndex, MemoryRecord } from "./index-snapshot.js";
import type { PendingRecord } from "./pending-changes.js";
import type { RemovedSlots } from "./removed-slots.js";

/** Per slot of a merged snapshot: its keys, where its record lives, and its BM25 length. */
export interface SlotTables {
  count: number;
  ids: string[];
  docIds: Array<string | null>;
  fileSlots: Int32Array;
  memory: Array<MemoryRecord | undefined>;
  lengths: Uint32Array;
  totalLength: number;
}

/** The slot tables of a merge: the base's surviving slots in their order, then the added records. */
export function mergeSlotTables(
  base: IndexSnapshot,
  baseKeys: { ids: readonly string[]; docIds: ReadonlyArray<string | null> },
  baseLengths: LexicalIndex["lengths"],
  removal: RemovedSlots,
  added: readonly PendingRecord[],
): SlotTables {
  const { removed, survivors } = removal;
  const count = survivors + added.length;
  const ids: string[] = new Array<string>(count);
  const docIds: Array<string | null> = new Array<string | null>(count);
  const fileSlots = new Int32Array(count);
  const memory: Array<MemoryRecord | undefined> = new Array<MemoryRecord | undefined>(count);
  const lengths = new Uint32Array(count);
  let totalLength = 0;
  for (let slot = 0, target = 0; slot < base.count; slot += 1) {
    if (removed[slot] === 1) continue;
    ids[target] = baseKeys.ids[slot] as string;
    docIds[target] = baseKeys.docIds[slot] ?? null;
    fileSlots[target] = base.records.fileSlots[slot] ?? -1;
    memory[target] = base.records.memory[slot];
    const length = baseLengths[slot] as number;
    lengths[target] = length;
    totalLength += length;
    target += 1;
  }
  added.forEach((record, index) => {
    const target = survivors + index;
    ids[target] = record.id;
    docIds[target] = record.docId;
    fileSlots[target] = -1;
    memory[target] = { content: record.content, metadataText: record.metadataText };
    lengths[target] = record.length;
    totalLength += record.length;
  });
  return { count, ids, docIds, fileSlots, memory, lengths, totalLength };
}
