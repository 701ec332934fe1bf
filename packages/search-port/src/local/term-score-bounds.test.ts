import { describe, expect, it } from "vitest";
import { emptySnapshot as emptyIndexSnapshot } from "./index-snapshot.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import { random } from "./seeded-random-test-fixtures.js";
import { boundBlockPostings, keptBoundBytes, termScoreBounds, windowShift } from "./term-score-bounds.js";

/** A snapshot that says it has `count` records: `termScoreBounds` only reads its count and kept bounds. */
function emptySnapshot(count: number): IndexSnapshot {
  return { ...emptyIndexSnapshot(), count };
}

/** Ascending slots below `count` in clusters with long gaps (whole windows empty), and frequencies of 1 to 40. */
function randomPostings(seed: number, count: number) {
  const next = random(seed);
  const slots: number[] = [];
  let slot = Math.floor(next() * 50);
  while (slot < count) {
    slots.push(slot);
    slot += next() < 0.02 ? 1 + Math.floor(next() * 3 * 2 ** windowShift) : 1 + Math.floor(next() * 6);
  }
  const frequencies = slots.map(() => 1 + Math.floor(40 * next() ** 4));
  const norms = Float32Array.from({ length: count }, () => 0.3 + 2 * next());
  return { postings: { slots: Uint32Array.from(slots), frequencies: Uint16Array.from(frequencies) }, norms };
}

describe("issue 14: the score bounds of a term's postings", () => {
  it("bounds every block exactly and every window from above, and marks only windows no block reaches with 0", () => {
    for (const seed of [1, 2, 3]) {
      const count = 9 * 2 ** windowShift + 123;
      const { postings, norms } = randomPostings(seed, count);
      const { slots, frequencies } = postings;
      const bounds = termScoreBounds(emptySnapshot(count), 0, postings, norms);
      const part = (posting: number) => {
        const frequency = frequencies[posting] as number;
        return frequency / (frequency + (norms[slots[posting] as number] as number));
      };
      expect(bounds.blocks.length).toBe(Math.ceil(slots.length / boundBlockPostings));
      /** The largest block bound among the blocks whose slots reach into each window. */
      const reached = new Map<number, number>();
      for (let block = 0; block < bounds.blocks.length; block += 1) {
        const start = block * boundBlockPostings;
        const end = Math.min(slots.length, start + boundBlockPostings);
        let largest = 0;
        for (let posting = start; posting < end; posting += 1) largest = Math.max(largest, part(posting));
        expect(bounds.blocks[block]).toBe(largest);
        expect(bounds.blockLast[block]).toBe(slots[end - 1]);
        for (let window = (slots[start] as number) >>> windowShift; window <= (slots[end - 1] as number) >>> windowShift; window += 1) {
          reached.set(window, Math.max(reached.get(window) ?? 0, largest));
        }
      }
      expect(bounds.windows.length).toBe(Math.ceil(count / 2 ** windowShift));
      const best = new Float64Array(bounds.windows.length);
      for (let posting = 0; posting < slots.length; posting += 1) {
        const window = (slots[posting] as number) >>> windowShift;
        best[window] = Math.max(best[window] as number, part(posting));
      }
      let empty = 0;
      bounds.windows.forEach((bound, window) => {
        expect(bound).toBeGreaterThanOrEqual(best[window] as number);
        if (reached.has(window)) expect(bound).toBe(reached.get(window));
        else {
          expect(bound).toBe(0);
          empty += 1;
        }
      });
      // The gaps leave whole windows without the term: the test covers the 0 case.
      expect(empty).toBeGreaterThan(0);
    }
  });

  it("keeps the bounds of a term with the snapshot and hands them out again", () => {
    const count = 3 * 2 ** windowShift;
    const { postings, norms } = randomPostings(7, count);
    const snapshot = emptySnapshot(count);
    const first = termScoreBounds(snapshot, 5, postings, norms);
    expect(termScoreBounds(snapshot, 5, postings, norms)).toBe(first);
    expect(snapshot.scoreBounds?.byTerm.get(5)).toBe(first);
  });

  it("drops the least recently used terms' bounds when the kept bytes would pass the limit, and never keeps one larger than it", () => {
    // 3 MB of window bounds per term: ten fit in the 32 MB, the eleventh needs room.
    const windows = (3 * 1024 * 1024) / 8;
    const snapshot = emptySnapshot(windows * 2 ** windowShift);
    const postings = { slots: Uint32Array.of(5), frequencies: Uint16Array.of(2) };
    const norms = new Float32Array(6).fill(1);
    const kept = () => [...(snapshot.scoreBounds?.byTerm.keys() ?? [])].sort((left, right) => left - right);
    for (let term = 0; term < 10; term += 1) termScoreBounds(snapshot, term, postings, norms);
    expect(kept()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const first = termScoreBounds(snapshot, 0, postings, norms);
    termScoreBounds(snapshot, 10, postings, norms);
    expect(kept()).toEqual([0, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(termScoreBounds(snapshot, 0, postings, norms)).toBe(first);
    expect(snapshot.scoreBounds?.bytes).toBeLessThanOrEqual(keptBoundBytes);
    expect(snapshot.scoreBounds?.bytes).toBe(10 * (8 * windows + 8 + 4));

    // A term whose bounds alone pass the limit is not kept, and the term kept before it stays:
    // window bounds 64 KB short of the limit, so one posting fits and 400,000 (6,250 blocks) do not.
    const windowsNearLimit = (keptBoundBytes - 64 * 1024) / 8;
    const near = emptySnapshot(windowsNearLimit * 2 ** windowShift);
    termScoreBounds(near, 1, postings, norms);
    const keptBytes = near.scoreBounds?.bytes;
    expect(keptBytes).toBe(8 * windowsNearLimit + 8 + 4);
    const many = 400_000;
    const long = { slots: Uint32Array.from({ length: many }, (_, index) => index), frequencies: new Uint16Array(many).fill(1) };
    const bounds = termScoreBounds(near, 2, long, new Float32Array(many).fill(1));
    expect(bounds.blocks.length).toBe(6250);
    expect(bounds.windows[0]).toBe(0.5);
    expect([...(near.scoreBounds?.byTerm.keys() ?? [])]).toEqual([1]);
    expect(near.scoreBounds?.bytes).toBe(keptBytes);
  });
});
