/** Slots a run handed out by `liveRuns` spans at most (so a copy of its bytes stays a few MB). */
const runSlots = 1 << 15;

/**
 * The live slots of a segment of `count` records (`deleted[slot]` 1: deleted; absent: none
 * is) as runs `[from, to)` of consecutive slots, in order, none longer than `runSlots`.
 */
export function* liveRuns(count: number, deleted: Uint8Array | undefined): Generator<[number, number]> {
  let slot = 0;
  while (slot < count) {
    while (slot < count && deleted?.[slot] === 1) slot += 1;
    const from = slot;
    while (slot < count && slot - from < runSlots && deleted?.[slot] !== 1) slot += 1;
    if (slot > from) yield [from, slot];
  }
}
