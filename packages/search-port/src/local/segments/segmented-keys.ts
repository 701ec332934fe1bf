import type { SnapshotKeys } from "../snapshot/snapshot-keys.js";
import type { SegmentPart } from "./segment-part.js";
import type { SlotMap } from "./slot-map.js";

/** The keys of a composed snapshot: each slot's id and document id asked of the part holding it. */
export class SegmentedKeys implements SnapshotKeys {
  private all: { ids: readonly string[]; docIds: ReadonlyArray<string | null> } | undefined;

  constructor(private readonly slots: SlotMap) {}

  id(slot: number): string {
    const part = this.slots.partOf(slot);
    return this.keysOf(part).id(this.slots.partSlot(part, slot));
  }

  docId(slot: number): string | null {
    const part = this.slots.partOf(slot);
    return this.keysOf(part).docId(this.slots.partSlot(part, slot));
  }

  /** The live records' keys in slot order, gathered from every part's arrays the first time. */
  arrays(): { ids: readonly string[]; docIds: ReadonlyArray<string | null> } {
    if (this.all !== undefined) return this.all;
    const { count, parts } = this.slots;
    const ids = new Array<string>(count);
    const docIds = new Array<string | null>(count);
    let target = 0;
    parts.forEach((part, index) => {
      if (this.slots.liveCount(index) === 0) return;
      const keys = part.snapshot.keys.arrays();
      const live = this.slots.liveTable(index);
      const total = live === undefined ? part.snapshot.count : live.length;
      for (let at = 0; at < total; at += 1) {
        const slot = live === undefined ? at : (live[at] as number);
        ids[target] = keys.ids[slot] as string;
        docIds[target] = keys.docIds[slot] ?? null;
        target += 1;
      }
    });
    this.all = { ids, docIds };
    return this.all;
  }

  eachId(visit: (id: string, slot: number) => void): void {
    this.eachLive((keys, live) => keys.eachId((id, partSlot) => live(partSlot, (slot) => visit(id, slot))));
  }

  eachDocId(visit: (docId: string | null, slot: number) => void): void {
    this.eachLive((keys, live) => keys.eachDocId((docId, partSlot) => live(partSlot, (slot) => visit(docId, slot))));
  }

  /** Each part with live records, with a function that passes a part slot's composed slot on when that record is live. */
  private eachLive(scan: (keys: SnapshotKeys, live: (partSlot: number, pass: (slot: number) => void) => void) => void): void {
    this.slots.parts.forEach((part, index) => {
      if (this.slots.liveCount(index) === 0) return;
      scan(part.snapshot.keys, (partSlot, pass) => {
        const slot = this.slots.composedSlot(index, partSlot);
        if (slot >= 0) pass(slot);
      });
    });
  }

  private keysOf(part: number): SnapshotKeys {
    return (this.slots.parts[part] as SegmentPart).snapshot.keys;
  }
}
