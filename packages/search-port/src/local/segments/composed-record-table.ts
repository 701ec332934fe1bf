import { fileSlotOf } from "../snapshot/index-snapshot.js";
import type { MemoryRecord, RecordTable } from "../snapshot/index-snapshot.js";
import { SegmentedRecords } from "./segmented-records.js";
import type { SlotMap } from "./slot-map.js";

/**
 * Where each live record of a composed snapshot lives: `file` reads the parts' committed
 * files (`SegmentedRecords`, undefined when no part has any), `fileSlots[slot]` is `slot`
 * for a record in a file and -1 for one a part holds in memory, `memory[slot]` that record.
 * The two tables are built the first time they are read; `fileSlotOf` gives one slot's
 * entry without building the first.
 */
export function composedRecordTable(slots: SlotMap): RecordTable {
  const file = slots.parts.some((part) => part.snapshot.records.file !== undefined) ? new SegmentedRecords(slots) : undefined;
  let fileSlots: Int32Array | undefined;
  let memory: Array<MemoryRecord | undefined> | undefined;
  return {
    file,
    get fileSlots(): Int32Array {
      fileSlots ??= composedFileSlots(slots);
      return fileSlots;
    },
    // A search's hits need a few slots' entries: building the whole table for them was 8-12 ms
    // of a cold query at 103,660 chunks (a loop over every slot in V8's interpreter).
    fileSlotOf(slot: number): number {
      return fileSlots === undefined ? composedFileSlot(slots, slot) : (fileSlots[slot] ?? -1);
    },
    get memory(): Array<MemoryRecord | undefined> {
      memory ??= composedMemory(slots);
      return memory;
    },
  };
}

/** `composedFileSlots(slots)[slot]` (-1 outside the table), from the part that holds the slot. */
function composedFileSlot(slots: SlotMap, slot: number): number {
  if (!Number.isInteger(slot) || slot < 0 || slot >= slots.count) return -1;
  const part = slots.partOf(slot);
  const { records } = (slots.parts[part] as SlotMap["parts"][number]).snapshot;
  if (records.file === undefined) return -1;
  return fileSlotOf(records, slots.partSlot(part, slot)) >= 0 ? slot : -1;
}

function composedFileSlots(slots: SlotMap): Int32Array {
  const fileSlots = new Int32Array(slots.count).fill(-1);
  slots.parts.forEach((part, index) => {
    const live = slots.liveCount(index);
    const { file, fileSlots: own } = part.snapshot.records;
    if (live === 0 || file === undefined) return;
    const base = slots.bases[index] as number;
    // The part's live slots read from its table (or, without deletions, its slots in order), not
    // through `partSlot` row by row: a cold query builds this table once over every row, before
    // the loop is optimised (issue 36 item 5).
    const liveSlots = slots.liveTable(index);
    for (let at = 0; at < live; at += 1) {
      const partSlot = liveSlots === undefined ? at : (liveSlots[at] as number);
      if ((own[partSlot] ?? -1) >= 0) fileSlots[base + at] = base + at;
    }
  });
  return fileSlots;
}

function composedMemory(slots: SlotMap): Array<MemoryRecord | undefined> {
  const holding = slots.parts.some((part) => part.snapshot.records.memory.some((record) => record !== undefined));
  if (!holding) return [];
  const memory = new Array<MemoryRecord | undefined>(slots.count);
  slots.parts.forEach((part, index) => {
    const live = slots.liveCount(index);
    const own = part.snapshot.records.memory;
    const base = slots.bases[index] as number;
    for (let at = 0; at < live; at += 1) memory[base + at] = own[slots.partSlot(index, base + at)];
  });
  return memory;
}
