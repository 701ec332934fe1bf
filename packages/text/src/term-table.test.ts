import { describe, expect, it } from "vitest";
import { TermNumbering } from "./term-numbering.js";
import { TermTable, initialSlots, wordHash } from "./term-table.js";

/** A table whose terms are the word in upper case, counting how often it worked one out. */
function countingTable() {
  const derived: string[] = [];
  const table = new TermTable((word) => {
    derived.push(word);
    return word === "the" ? null : word.toUpperCase();
  });
  const termOf = (text: string, lowerCase = text === text.toLowerCase()) =>
    table.termOf(text, 0, text.length, wordHash(text, 0, text.length), lowerCase);
  return { derived, termOf, table };
}

describe("TermTable", () => {
  it("issue 36 item 4: works a word's term out once, finds it again by a slice in any case, and keeps null for a dropped word", () => {
    const { derived, termOf } = countingTable();
    expect(termOf("limit")).toBe("LIMIT");
    expect(termOf("Limit")).toBe("LIMIT");
    expect(termOf("LIMIT")).toBe("LIMIT");
    expect(termOf("the")).toBeNull();
    expect(termOf("The")).toBeNull();
    const table = new TermTable((word) => word);
    const text = "rate-Limit limit";
    expect(table.termOf(text, 5, 10, wordHash(text, 5, 10), false)).toBe("limit");
    expect(table.termOf(text, 11, 16, wordHash(text, 11, 16), true)).toBe("limit");
    expect(derived).toEqual(["limit", "the"]);
  });

  it("issue 36 item 4: gives the right term for 600,000 distinct words, through its growth and past its bound (emptied, then filled again)", () => {
    const { derived, termOf } = countingTable();
    const words = Array.from({ length: 600_000 }, (_, index) => `w${index.toString(36)}`);
    const wrong = words.filter((word) => termOf(word) !== word.toUpperCase());
    expect(wrong).toEqual([]);
    expect(derived.length).toBe(600_000);
    // The last words are still there; the first ones went when it was emptied, and come back.
    expect(termOf(words[599_999] as string)).toBe((words[599_999] as string).toUpperCase());
    expect(derived.length).toBe(600_000);
    expect(termOf(words[0] as string)).toBe("W0");
    expect(derived.length).toBe(600_001);
  });

  it("issue 36 item 6: holds 16,384 words (an ingest's vocabulary) in the arrays it started with, and grows past them", () => {
    const { table } = countingTable();
    const arrays = () => (table as unknown as { slots: Int32Array }).slots;
    const started = arrays();
    expect(initialSlots).toBe(1 << 15);
    const words = Array.from({ length: initialSlots / 2 + 1 }, (_, index) => `w${index.toString(36)}`);
    const termOf = (word: string) => table.termOf(word, 0, word.length, wordHash(word, 0, word.length), true);
    for (const word of words.slice(0, initialSlots / 2)) termOf(word);
    // No array reassigned: the methods' optimised code, which reads them as constants, stays.
    expect(arrays()).toBe(started);
    expect(termOf(words[initialSlots / 2] as string)).toBe((words[initialSlots / 2] as string).toUpperCase());
    expect(arrays()).not.toBe(started);
    expect(words.map(termOf)).toEqual(words.map((word) => word.toUpperCase()));
  });

  it("issue 36 item 4: gives each numbering its own ids (-1 for a dropped word), remembered per word, right when numberings take turns", () => {
    const { derived, table } = countingTable();
    const idOf = (text: string, numbering: TermNumbering) =>
      table.termIdOf(text, 0, text.length, wordHash(text, 0, text.length), text === text.toLowerCase(), numbering);
    const first = new TermNumbering();
    const second = new TermNumbering();
    second.idOf("OTHER");
    expect([idOf("rate", first), idOf("limit", first), idOf("Rate", first), idOf("the", first)]).toEqual([0, 1, 0, -1]);
    expect([idOf("limit", second), idOf("rate", second), idOf("RATE", first), idOf("The", second)]).toEqual([1, 2, 0, -1]);
    expect(first.terms).toEqual(["RATE", "LIMIT"]);
    expect(second.terms).toEqual(["OTHER", "LIMIT", "RATE"]);
    expect(derived).toEqual(["rate", "limit", "the"]);
  });

  it("issue 36 item 4: keeps ids right for 600,000 distinct words, through its growth and past its bound", () => {
    const { table } = countingTable();
    const numbering = new TermNumbering();
    const words = Array.from({ length: 600_000 }, (_, index) => `w${index.toString(36)}`);
    const idOf = (word: string) => table.termIdOf(word, 0, word.length, wordHash(word, 0, word.length), true, numbering);
    const wrong = words.filter((word, index) => idOf(word) !== index);
    expect(wrong).toEqual([]);
    // After the table was emptied, the first words' ids come from the numbering again.
    expect(words.slice(0, 3).map(idOf)).toEqual([0, 1, 2]);
    expect(idOf(words[599_999] as string)).toBe(599_999);
    expect(numbering.size).toBe(600_000);
  });
});
