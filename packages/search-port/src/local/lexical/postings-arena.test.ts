import { describe, expect, it } from "vitest";
import { PostingsArena } from "./postings-arena.js";

/** A list of `count` postings whose slots and frequencies say which term they belong to. */
function fillFor(term: number, count: number) {
  return (slotBytes: Uint8Array, frequencyBytes: Uint8Array): void => {
    const slots = new Uint32Array(count).map((_, index) => term * 1000 + index);
    const frequencies = new Uint16Array(count).fill(term);
    slotBytes.set(new Uint8Array(slots.buffer));
    frequencyBytes.set(new Uint8Array(frequencies.buffer));
  };
}

function expectList(list: { slots: Uint32Array; frequencies: Uint16Array } | undefined, term: number, count: number): void {
  expect(list).toBeDefined();
  expect(Array.from(list?.slots ?? [])).toEqual(Array.from({ length: count }, (_, index) => term * 1000 + index));
  expect(Array.from(list?.frequencies ?? [])).toEqual(Array.from({ length: count }, () => term));
}

describe("issue 14: the ring of reused memory that holds a reader's recent postings", () => {
  it("holds lists one after another and hands the same list back while it is held", () => {
    const arena = new PostingsArena(800);
    arena.beginSearch();
    const first = arena.hold(1, 20, fillFor(1, 20));
    const second = arena.hold(2, 20, fillFor(2, 20));
    expectList(first, 1, 20);
    expectList(second, 2, 20);
    expect(first?.slots.buffer).toBe(second?.slots.buffer);
    expect(arena.get(1)).toBe(first);
    expect(arena.get(3)).toBeUndefined();
    // 20 postings take 120 bytes each.
    expect(arena.heldBytes).toBe(240);
  });

  it("lets the oldest lists go to reuse their bytes, once the searches that had them are over", () => {
    const arena = new PostingsArena(800);
    // Seven lists of 120 bytes do not fit in 800: the first makes room for the seventh.
    for (let term = 1; term <= 7; term += 1) {
      arena.beginSearch();
      expectList(arena.hold(term, 20, fillFor(term, 20)), term, 20);
    }
    expect(arena.get(1)).toBeUndefined();
    for (let term = 2; term <= 7; term += 1) expectList(arena.get(term), term, 20);
    expect(arena.get(7)?.slots.byteOffset).toBe(0);
    expect(arena.heldBytes).toBe(720);
  });

  it("never overwrites a list the current search was handed: the list in the way is kept and the new one is not held", () => {
    const arena = new PostingsArena(800);
    arena.beginSearch();
    const lists = [1, 2, 3, 4, 5, 6].map((term) => arena.hold(term, 20, fillFor(term, 20)));
    // The same search asks for a seventh list: the first is in the way and still in use.
    expect(arena.hold(7, 20, fillFor(7, 20))).toBeUndefined();
    for (const [index, list] of lists.entries()) expectList(list, index + 1, 20);
    // A list asked for again in a new search is in use again, so it is kept too.
    arena.beginSearch();
    expectList(arena.get(1), 1, 20);
    expect(arena.hold(7, 20, fillFor(7, 20))).toBeUndefined();
    expectList(arena.get(1), 1, 20);
    // In the next search nothing is in use: the oldest go.
    arena.beginSearch();
    expectList(arena.hold(7, 20, fillFor(7, 20)), 7, 20);
    expect(arena.get(1)).toBeUndefined();
  });

  it("goes on from the start when the bytes before the end are too few, letting the lists there go first", () => {
    const arena = new PostingsArena(1000);
    arena.beginSearch();
    // 40 postings take 240 bytes: four take 960, and a fifth does not fit in the last 40 bytes.
    for (let term = 1; term <= 4; term += 1) arena.hold(term, 40, fillFor(term, 40));
    arena.beginSearch();
    const fifth = arena.hold(5, 40, fillFor(5, 40));
    expectList(fifth, 5, 40);
    expect(fifth?.slots.byteOffset).toBe(0);
    expect(arena.get(1)).toBeUndefined();
    for (let term = 2; term <= 4; term += 1) expectList(arena.get(term), term, 40);
    // A small list goes after the fifth, at 240, where the second was.
    arena.beginSearch();
    const sixth = arena.hold(6, 10, fillFor(6, 10));
    expect(sixth?.slots.byteOffset).toBe(240);
    expect(arena.get(2)).toBeUndefined();
    expectList(arena.get(3), 3, 40);
  });

  it("does not hold a list larger than a quarter of the ring, and holds nothing when the read fails", () => {
    const arena = new PostingsArena(9600);
    arena.beginSearch();
    expect(arena.hold(1, 401, fillFor(1, 401))).toBeUndefined();
    expectList(arena.hold(2, 400, fillFor(2, 400)), 2, 400);
    expect(() =>
      arena.hold(3, 10, () => {
        throw new Error("damaged block");
      }),
    ).toThrow("damaged block");
    expect(arena.get(3)).toBeUndefined();
    expect(arena.heldBytes).toBe(2400);
  });

  it("holds nothing, without an error, when its memory cannot be allocated", () => {
    const arena = new PostingsArena(2 ** 52);
    arena.beginSearch();
    expect(arena.hold(1, 20, fillFor(1, 20))).toBeUndefined();
    expect(arena.hold(2, 20, fillFor(2, 20))).toBeUndefined();
    expect(arena.heldBytes).toBe(0);
  });

  it("keeps every list it hands out intact over many random searches (each search's lists checked at its end)", () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const arena = new PostingsArena(4096);
    const sizes = new Map<number, number>();
    let held = 0;
    let fresh = 0;
    for (let search = 0; search < 2000; search += 1) {
      arena.beginSearch();
      const handed: Array<[number, { slots: Uint32Array; frequencies: Uint16Array }]> = [];
      for (let ask = 1 + Math.floor(random() * 6); ask > 0; ask -= 1) {
        const term = 1 + Math.floor(random() * 40);
        const count = sizes.get(term) ?? 1 + Math.floor(random() * 170);
        sizes.set(term, count);
        const list = arena.get(term) ?? arena.hold(term, count, fillFor(term, count));
        if (list === undefined) fresh += 1;
        else {
          held += 1;
          handed.push([term, list]);
        }
      }
      for (const [term, list] of handed) expectList(list, term, sizes.get(term) as number);
    }
    expect(held).toBeGreaterThan(fresh);
    expect(arena.heldBytes).toBeLessThanOrEqual(4096);
  });
});
