import { describe, expect, it } from "vitest";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { Lexicon } from "./lexicon.js";
import { blockBoundsOf, boundBlockPostings, termScoreBounds, windowShift } from "./term-score-bounds.js";

/** A snapshot of `count` slots whose only term is read through `storedBounds`. */
function snapshotWith(count: number, stored: Lexicon["storedBounds"]): IndexSnapshot {
  return { count, lexicon: { storedBounds: stored } as unknown as Lexicon } as unknown as IndexSnapshot;
}

describe("issue 14: termScoreBounds", () => {
  it("gives each window the largest bound of the blocks that reach into it", () => {
    const count = 5 * 2 ** windowShift;
    const slots = Uint32Array.from({ length: 3 * boundBlockPostings }, (_, posting) => posting * 97);
    const frequencies = Uint16Array.from(slots, (_, posting) => 1 + (posting % 5));
    const norms = new Float32Array(count).fill(1.2);
    const postings = { slots, frequencies };
    const bounds = termScoreBounds(snapshotWith(count, undefined), 0, postings, norms);
    const blocks = blockBoundsOf(postings, norms);
    expect(bounds.blocks).toEqual(blocks.blocks);
    const expected = new Float64Array(5);
    for (let posting = 0; posting < slots.length; posting += 1) {
      const window = (slots[posting] as number) >>> windowShift;
      expected[window] = Math.max(expected[window] as number, blocks.blocks[Math.floor(posting / boundBlockPostings)] as number);
    }
    expect(bounds.windows).toEqual(expected);
  });

  it("stops at the last window when a block's last slot lies past every record (no loop over 2^20 windows)", () => {
    const count = 2 ** windowShift + 1;
    const stored = () => ({ blocks: Float64Array.of(0.5), blockFirst: Uint32Array.of(0), blockLast: Uint32Array.of(0xffffffff) });
    const postings = { slots: Uint32Array.of(0), frequencies: Uint16Array.of(1) };
    const bounds = termScoreBounds(snapshotWith(count, stored), 0, postings, new Float32Array(count).fill(1));
    expect([...bounds.windows]).toEqual([0.5, 0.5]);
  });
});
