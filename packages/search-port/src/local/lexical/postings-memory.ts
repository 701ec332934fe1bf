import type { Postings } from "./lexicon.js";

/** Reads a list's slot bytes (4 a posting) and frequency bytes (2 a posting) into the views it is given. */
export type FillPostings = (slotBytes: Uint8Array, frequencyBytes: Uint8Array) => void;

/** The bytes `count` postings take in shared memory: 4 for the slot and 2 for the frequency, rounded up to 8. */
export function postingBytes(count: number): number {
  return Math.ceil((6 * count) / 8) * 8;
}

/**
 * `count` postings at byte `start` of `memory` (the slots, then the frequencies), read there by
 * `fill`; `memory` must hold `postingBytes(count)` bytes from `start`, which is a multiple of 8.
 */
export function postingsIn(memory: ArrayBuffer, start: number, count: number, fill: FillPostings): Postings {
  fill(new Uint8Array(memory, start, 4 * count), new Uint8Array(memory, start + 4 * count, 2 * count));
  return { slots: new Uint32Array(memory, start, count), frequencies: new Uint16Array(memory, start + 4 * count, count) };
}
