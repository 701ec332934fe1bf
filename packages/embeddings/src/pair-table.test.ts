import { describe, expect, it } from "vitest";
import { PairTable } from "./pair-table.js";

describe("PairTable", () => {
  it("issue 36 item 6: finds each pair added, through growth, and tells (a, b) from (b, a)", () => {
    const table = new PairTable<string>(4);
    for (let first = 1; first <= 300; first += 1) {
      for (let second = 1; second <= 300; second += 37) table.add(first, second, `${first},${second}`);
    }
    for (let first = 1; first <= 300; first += 1) {
      for (let second = 1; second <= 300; second += 1) {
        expect(table.get(first, second)).toBe((second - 1) % 37 === 0 ? `${first},${second}` : undefined);
      }
    }
    expect(table.get(38, 2)).toBeUndefined();
    expect(table.get(2, 38)).toBe("2,38");
  });

  it("issue 36 item 6: holds nothing after clear, and takes new pairs again", () => {
    const table = new PairTable<number>(4);
    for (let first = 1; first <= 50; first += 1) table.add(first, first + 1, first);
    table.clear();
    for (let first = 1; first <= 50; first += 1) expect(table.get(first, first + 1)).toBeUndefined();
    table.add(7, 8, 70);
    expect(table.get(7, 8)).toBe(70);
  });
});
