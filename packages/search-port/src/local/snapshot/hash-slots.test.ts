import { describe, expect, it } from "vitest";
import { random } from "../test/seeded-random-test-fixtures.js";
import { HashSlots } from "./hash-slots.js";

describe("HashSlots", () => {
  it("issue 36 (writer memory): finds every number under its hash through many growths, and none under a hash not added", () => {
    const next = random(3631);
    const table = new HashSlots();
    const hashOf = Array.from({ length: 50_000 }, () => Math.floor(next() * 2 ** 32));
    hashOf.forEach((hash, value) => {
      table.add(hash, value);
    });
    expect(table.size).toBe(50_000);
    // Three quarters full at most: 50,000 numbers in 2^17 slots of 8 bytes.
    expect(table.bytes).toBe(2 ** 17 * 8);
    hashOf.forEach((hash, value) => {
      expect(table.find(hash, (found) => found === value)).toBe(value);
    });
    const seen: number[] = [];
    expect(table.find(hashOf[7] === 12345 ? 12346 : 12345, (found) => seen.push(found) < 0)).toBe(-1);
    expect(seen.every((found) => hashOf[found] === 12345)).toBe(true);
  });

  it("issue 36 (writer memory): offers every number stored under one hash, and only those, until one is taken", () => {
    const table = new HashSlots();
    for (let value = 0; value < 3000; value += 1) table.add(value % 3 === 0 ? 0xdeadbeef : value, value);
    const offered: number[] = [];
    expect(table.find(0xdeadbeef, (value) => offered.push(value) < 0)).toBe(-1);
    expect(offered.sort((left, right) => left - right)).toEqual(Array.from({ length: 1000 }, (_, index) => 3 * index));
    expect(table.find(0xdeadbeef, (value) => value === 2997)).toBe(2997);
    expect(table.find(4, (value) => value === 4)).toBe(4);
    expect(() => table.add(1, 0xffffffff)).toThrow(/below 2\^32 - 1, got 4294967295/);
    expect(() => table.add(1, -1)).toThrow(RangeError);
  });
});
