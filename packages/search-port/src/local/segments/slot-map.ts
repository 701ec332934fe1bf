import type { SegmentPart } from "./segment-part.js";

/**
 * How the slots of a composed snapshot (`composeSnapshot`) map to the parts' own slots: the
 * live records of every part, part by part in order, within a part in its slot order.
 * A part without deletions maps by an offset; one with deletions keeps two tables (its live
 * slots, and each of its slots' composed slot or -1), 8 bytes per record of that part.
 */
export class SlotMap {
  /** Live records over all parts: the composed snapshot's `count`. */
  readonly count: number;
  /** The composed slot of each part's first live record; `parts.length + 1` entries (the last is `count`). */
  readonly bases: Float64Array;
  /** Per part with deletions, its live slots in order; undefined for a part without. */
  private readonly liveSlots: Array<Uint32Array | undefined>;
  /** Per part with deletions, each of its slots' composed slot, or -1 for a deleted one. */
  private readonly composedSlots: Array<Int32Array | undefined>;
  /** Per part with deletions, its deleted slots in order. */
  private readonly deletedSlots: Array<Uint32Array | undefined>;

  constructor(readonly parts: readonly SegmentPart[]) {
    this.bases = new Float64Array(parts.length + 1);
    this.liveSlots = [];
    this.composedSlots = [];
    this.deletedSlots = [];
    let base = 0;
    parts.forEach((part, index) => {
      this.bases[index] = base;
      const { count } = part.snapshot;
      const deleted = part.deleted;
      if (deleted !== undefined && deleted.length < count) {
        throw new Error(`composeSnapshot: part ${index} has ${count} records but a deletion set of ${deleted.length}`);
      }
      const live = deleted === undefined ? count : liveCount(deleted, count);
      if (live === count) {
        this.liveSlots.push(undefined);
        this.composedSlots.push(undefined);
        this.deletedSlots.push(undefined);
      } else {
        const liveSlots = new Uint32Array(live);
        const composedSlots = new Int32Array(count);
        const deletedSlots = new Uint32Array(count - live);
        for (let slot = 0, next = 0, gone = 0; slot < count; slot += 1) {
          if (deleted?.[slot] === 1) {
            composedSlots[slot] = -1;
            deletedSlots[gone] = slot;
            gone += 1;
          } else {
            liveSlots[next] = slot;
            composedSlots[slot] = base + next;
            next += 1;
          }
        }
        this.liveSlots.push(liveSlots);
        this.composedSlots.push(composedSlots);
        this.deletedSlots.push(deletedSlots);
      }
      base += live;
    });
    this.bases[parts.length] = base;
    this.count = base;
  }

  /** Live records of part `part`. */
  liveCount(part: number): number {
    return (this.bases[part + 1] as number) - (this.bases[part] as number);
  }

  /** Whether part `part` has deleted records. */
  hasDeletions(part: number): boolean {
    return this.composedSlots[part] !== undefined;
  }

  /** The part holding composed slot `slot` (0 <= slot < count). */
  partOf(slot: number): number {
    // The last part whose first slot is at most `slot`: never an empty part, since the part
    // after an empty one starts at the same slot.
    const { bases } = this;
    let low = 0;
    let high = this.parts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((bases[middle] as number) <= slot) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** The slot in part `part`'s own snapshot of composed slot `slot` (which that part holds). */
  partSlot(part: number, slot: number): number {
    const offset = slot - (this.bases[part] as number);
    const live = this.liveSlots[part];
    return live === undefined ? offset : (live[offset] as number);
  }

  /** The composed slot of slot `partSlot` of part `part`, or -1 when that record is deleted. */
  composedSlot(part: number, partSlot: number): number {
    const composed = this.composedSlots[part];
    return composed === undefined ? (this.bases[part] as number) + partSlot : (composed[partSlot] as number);
  }

  /** Part `part`'s slot -> composed slot table (-1: deleted), or undefined when the part has no deletions (then it is `bases[part] + slot`). */
  composedTable(part: number): Int32Array | undefined {
    return this.composedSlots[part];
  }

  /** Part `part`'s deleted slots in order, or undefined when none is deleted. */
  deletedTable(part: number): Uint32Array | undefined {
    return this.deletedSlots[part];
  }

  /** Part `part`'s live slots in order, or undefined when all its slots are live. */
  liveTable(part: number): Uint32Array | undefined {
    return this.liveSlots[part];
  }
}

function liveCount(deleted: Uint8Array, count: number): number {
  let live = count;
  for (let slot = 0; slot < count; slot += 1) if (deleted[slot] === 1) live -= 1;
  return live;
}
