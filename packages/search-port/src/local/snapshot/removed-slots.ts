/** Up to this many removed slots, postings are copied in runs between them. */
const segmentedCopyLimit = 64;

/** The slots of a base snapshot that a merge drops, and how far down each survivor moves. */
export interface RemovedSlots {
  /** 1 at a removed slot (`PendingChanges.removed`). */
  removed: Uint8Array;
  /** removedBefore[slot]: how many removed slots come before `slot`; a survivor moves down by that much (`count + 1` entries). */
  removedBefore: Uint32Array;
  survivors: number;
  /**
   * The removed slots in order when there are few (at most 64), so postings can be copied in
   * runs between them; undefined with more: each posting is then checked on its own.
   */
  listed: number[] | undefined;
}

/** The removed slots of a base snapshot of `count` slots, where `removed` is 1. */
export function removedSlots(count: number, removed: Uint8Array): RemovedSlots {
  const removedBefore = new Uint32Array(count + 1);
  for (let slot = 0; slot < count; slot += 1) {
    removedBefore[slot + 1] = (removedBefore[slot] as number) + (removed[slot] === 1 ? 1 : 0);
  }
  const survivors = count - (removedBefore[count] as number);
  let listed: number[] | undefined;
  if (count - survivors <= segmentedCopyLimit) {
    listed = [];
    for (let slot = 0; slot < count; slot += 1) if (removed[slot] === 1) listed.push(slot);
  }
  return { removed, removedBefore, survivors, listed };
}
