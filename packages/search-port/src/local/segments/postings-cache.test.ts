import { describe, expect, it } from "vitest";
import { PostingsCache } from "./postings-cache.js";

/** A list of `count` postings: 6 bytes each. */
const list = (count: number) => ({ slots: new Uint32Array(count), frequencies: new Uint16Array(count) });

describe("PostingsCache", () => {
  it("issue 36 item 1: keeps at most its bytes, the least recently used list going first", () => {
    const cache = new PostingsCache(60);
    const [a, b, c] = [list(4), list(4), list(4)];
    cache.set(1, a);
    cache.set(2, b);
    expect(cache.keptBytes).toBe(48);
    expect(cache.get(1)).toBe(a);
    // 1 was used last: 2 makes room for 3.
    cache.set(3, c);
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)).toBe(a);
    expect(cache.get(3)).toBe(c);
    expect(cache.keptBytes).toBe(48);
  });

  it("issue 36 item 1: does not keep a list larger than itself, and a list it dropped stays as it was handed out", () => {
    const cache = new PostingsCache(60);
    const large = list(11);
    cache.set(1, large);
    expect(cache.get(1)).toBeUndefined();
    expect(cache.keptBytes).toBe(0);
    const kept = list(8);
    kept.slots[7] = 42;
    cache.set(2, kept);
    cache.set(3, list(8));
    expect(cache.get(2)).toBeUndefined();
    expect(kept.slots[7]).toBe(42);
    cache.clear();
    expect(cache.keptBytes).toBe(0);
  });
});
