import { describe, expect, it } from "vitest";
import { random } from "../test/seeded-random-test-fixtures.js";
import { firstAtLeast } from "./first-at-least.js";
import { PagedPostings, pagePostings, readAheadPostings } from "./paged-postings.js";
import { blockBoundsOf } from "./term-score-bounds.js";

/** A list of `count` ascending slots with gaps of 1 to `gap`, and frequencies 1 to 9. */
function list(count: number, gap: number, seed: number) {
  const next = random(seed);
  const slots = new Uint32Array(count);
  const frequencies = new Uint16Array(count);
  let slot = 0;
  for (let at = 0; at < count; at += 1) {
    slot += 1 + Math.floor(gap * next());
    slots[at] = slot;
    frequencies[at] = 1 + Math.floor(9 * next());
  }
  return { slots, frequencies };
}

const same = (left: ArrayBufferView, right: ArrayBufferView) =>
  Buffer.from(left.buffer, left.byteOffset, left.byteLength).equals(Buffer.from(right.buffer, right.byteOffset, right.byteLength));

/** `PagedPostings` over `whole`, reading from it and counting the postings read. */
function paged(whole: ReturnType<typeof list>, damaged?: number) {
  const stored = blockBoundsOf(whole, new Float32Array(whole.slots[whole.slots.length - 1] as number).fill(1));
  const reads = { calls: 0, postings: 0 };
  const postings = new PagedPostings(
    new Uint32Array(whole.slots.length),
    new Uint16Array(whole.slots.length),
    stored,
    (from, slotBytes, frequencyBytes) => {
      reads.calls += 1;
      reads.postings += slotBytes.length / 4;
      slotBytes.set(new Uint8Array(whole.slots.buffer, 4 * from, slotBytes.length));
      frequencyBytes.set(new Uint8Array(whole.frequencies.buffer, 2 * from, frequencyBytes.length));
      if (damaged !== undefined && damaged >= from && damaged < from + slotBytes.length / 4) {
        const view = new Uint32Array(slotBytes.buffer, slotBytes.byteOffset, slotBytes.length / 4);
        view[damaged - from] = (view[damaged - from] as number) + 1;
      }
    },
    (block) => {
      throw new Error(`block ${block} does not match`);
    },
  );
  return { postings, reads };
}

describe("issue 36 (lexical search at ten million chunks): a long list read page by page", () => {
  it("seeks as a binary search of the whole list does, from any posting, reading only the pages it lands on", () => {
    const whole = list(100_000, 40, 1);
    const next = random(2);
    const { postings, reads } = paged(whole);
    const last = whole.slots[whole.slots.length - 1] as number;
    for (let probe = 0; probe < 100; probe += 1) {
      const from = Math.floor(whole.slots.length * next());
      const slot = Math.floor((last + 10) * next());
      const expected = firstAtLeast(whole.slots, from, whole.slots.length, slot);
      const at = postings.seek(from, slot);
      expect(at).toBe(expected);
      if (at < whole.slots.length) {
        expect(postings.slots[at]).toBe(whole.slots[at]);
        expect(postings.frequencies[at]).toBe(whole.frequencies[at]);
      }
    }
    // A probe reads one page at most (a page once): 100 probes of a list of 196 pages.
    expect(reads.calls).toBeLessThanOrEqual(100);
    expect(reads.postings).toBeLessThanOrEqual(100 * pagePostings);
  });

  it("reads a run up to a slot and some way ahead in one read, then all of it for a full pass, each page once", () => {
    const whole = list(100_000, 5, 3);
    const { postings, reads } = paged(whole);
    postings.loadUntil(0, whole.slots[1000] as number);
    expect(reads.calls).toBe(1);
    expect(reads.postings).toBe(readAheadPostings);
    expect(same(postings.slots.subarray(0, readAheadPostings), whole.slots.subarray(0, readAheadPostings))).toBe(true);
    postings.loadAll();
    expect(reads.postings).toBe(whole.slots.length);
    expect(same(postings.slots, whole.slots) && same(postings.frequencies, whole.frequencies)).toBe(true);
    postings.seek(0, whole.slots[50_000] as number);
    expect(reads.postings).toBe(whole.slots.length);
  });

  it("past the last slot, seeks to the end without reading", () => {
    const whole = list(5000, 10, 4);
    const { postings, reads } = paged(whole);
    expect(postings.seek(0, (whole.slots[4999] as number) + 1)).toBe(5000);
    expect(postings.seek(5000, 0)).toBe(5000);
    expect(reads.calls).toBe(0);
  });

  it("refuses a page whose postings do not match their blocks' stored first and last slots", () => {
    const whole = list(5000, 10, 5);
    const { postings } = paged(whole, 4 * pagePostings + 63);
    expect(() => postings.seek(0, whole.slots[100] as number)).not.toThrow();
    expect(() => postings.seek(0, whole.slots[4 * pagePostings + 10] as number)).toThrow(`block ${4 * 8} does not match`);
  });
});
