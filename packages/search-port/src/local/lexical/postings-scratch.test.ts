import { describe, expect, it } from "vitest";
import { PostingsScratch } from "./postings-scratch.js";

function fillFor(term: number, count: number) {
  return (slotBytes: Uint8Array, frequencyBytes: Uint8Array): void => {
    slotBytes.set(new Uint8Array(new Uint32Array(count).map((_, index) => term * 1000 + index).buffer));
    frequencyBytes.set(new Uint8Array(new Uint16Array(count).fill(term).buffer));
  };
}

function expectList(list: { slots: Uint32Array; frequencies: Uint16Array }, term: number, count: number): void {
  expect(Array.from(list.slots)).toEqual(Array.from({ length: count }, (_, index) => term * 1000 + index));
  expect(Array.from(list.frequencies)).toEqual(Array.from({ length: count }, () => term));
}

describe("issue 14: the memory a reader uses again for the postings it does not keep", () => {
  it("puts one search's lists one after another and the next search's in the same memory", () => {
    const scratch = new PostingsScratch();
    const first = scratch.take(100, fillFor(1, 100));
    const second = scratch.take(50, fillFor(2, 50));
    expectList(first, 1, 100);
    expectList(second, 2, 50);
    expect(second.slots.buffer).toBe(first.slots.buffer);
    expect(second.slots.byteOffset).toBe(600);
    scratch.reset();
    const next = scratch.take(10, fillFor(3, 10));
    expect(next.slots.buffer).toBe(first.slots.buffer);
    expect(next.slots.byteOffset).toBe(0);
    expectList(next, 3, 10);
  });

  it("grows into a larger block when a search needs more, leaving the lists already handed out intact", () => {
    const scratch = new PostingsScratch();
    // 1 MB at first: 150,000 postings take 900,000 bytes, a second list does not fit.
    const first = scratch.take(150_000, fillFor(1, 150_000));
    const second = scratch.take(150_000, fillFor(2, 150_000));
    expect(second.slots.buffer).not.toBe(first.slots.buffer);
    expectList(first, 1, 150_000);
    expectList(second, 2, 150_000);
    expect(scratch.keptBytes).toBe(2 * 1024 * 1024);
    // The larger block is used again by the next search.
    scratch.reset();
    expect(scratch.take(300_000, fillFor(3, 300_000)).slots.buffer).toBe(second.slots.buffer);
  });

  it("gives fresh memory past its largest size and keeps what it has", () => {
    const scratch = new PostingsScratch(2 * 1024 * 1024);
    const kept = scratch.take(10, fillFor(1, 10));
    const large = scratch.take(400_000, fillFor(2, 400_000));
    expect(large.slots.buffer).not.toBe(kept.slots.buffer);
    expectList(large, 2, 400_000);
    expectList(kept, 1, 10);
    expect(scratch.keptBytes).toBe(1024 * 1024);
  });

  it("hands out no room when the read fails, and the next list takes it", () => {
    const scratch = new PostingsScratch();
    expect(() =>
      scratch.take(10, () => {
        throw new Error("damaged block");
      }),
    ).toThrow("damaged block");
    expect(scratch.take(10, fillFor(1, 10)).slots.byteOffset).toBe(0);
  });
});
