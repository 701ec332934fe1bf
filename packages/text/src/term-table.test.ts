import { describe, expect, it } from "vitest";
import { TermTable, wordHash } from "./term-table.js";

/** A table whose terms are the word in upper case, counting how often it worked one out. */
function countingTable() {
  const derived: string[] = [];
  const table = new TermTable((word) => {
    derived.push(word);
    return word === "the" ? null : word.toUpperCase();
  });
  const termOf = (text: string, lowerCase = text === text.toLowerCase()) =>
    table.termOf(text, 0, text.length, wordHash(text, 0, text.length), lowerCase);
  return { derived, termOf };
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
});
