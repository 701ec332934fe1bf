import type { FetchedRecord } from "../../knowledge-record-reader.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { recordContent, recordMetadata } from "../snapshot/index-snapshot.js";

const slotMaps = new WeakMap<IndexSnapshot, Map<string, number>>();

/** The slot of each record id in `snapshot`, built once per snapshot (snapshots never change). */
function slotsOf(snapshot: IndexSnapshot): Map<string, number> {
  let slots = slotMaps.get(snapshot);
  if (slots === undefined) {
    slots = new Map();
    const { ids } = snapshot.keys.arrays();
    for (let slot = 0; slot < snapshot.count; slot += 1) slots.set(ids[slot] as string, slot);
    slotMaps.set(snapshot, slots);
  }
  return slots;
}

/** The records of `ids` in `snapshot`, in the order asked; `undefined` for an id it does not hold. */
export function fetchLocalRecords(snapshot: IndexSnapshot, ids: readonly string[], directory: string): Array<FetchedRecord | undefined> {
  const slots = slotsOf(snapshot);
  return ids.map((id) => {
    const slot = slots.get(id);
    if (slot === undefined) return undefined;
    return { id, content: recordContent(snapshot.records, slot), metadata: recordMetadata(snapshot.records, slot, directory) };
  });
}
