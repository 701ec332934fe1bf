import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readSortedLines } from "./sorted-lines.js";

const shipped = readFileSync(fileURLToPath(new URL("../data/gloss-words.txt", import.meta.url)));

/** A pseudo-random generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words of 1-4 characters from ASCII, CJK, fullwidth forms and a supplementary plane. */
function randomWord(next: () => number): string {
  const pools = [
    [0x61, 26],
    [0x4e00, 400],
    [0xff21, 26],
    [0x20000, 40],
  ] as const;
  let word = "";
  const length = 1 + Math.floor(next() * 4);
  for (let at = 0; at < length; at += 1) {
    const [first, size] = pools[Math.floor(next() * pools.length)] as (typeof pools)[number];
    word += String.fromCodePoint(first + Math.floor(next() * size));
  }
  return word;
}

const byBytes = (left: string, right: string) => Buffer.compare(Buffer.from(left), Buffer.from(right));

describe("readSortedLines (issue 36 item 5: the gloss table's headwords looked up in place)", () => {
  it("finds every headword of the shipped list at its line, and no other text", () => {
    const lines = shipped.toString("utf8").slice(0, -1).split("\n");
    const sorted = readSortedLines(shipped, lines.length);
    expect(sorted).toBeDefined();
    for (const [index, line] of lines.entries()) expect(sorted?.indexOf(line)).toBe(index);
    for (const missing of ["", "the", "数据库X", "\u0000", "𠀀𠀀𠀀𠀀"]) expect(sorted?.indexOf(missing)).toBe(-1);
  });

  it("finds each of random sorted lines, with or without a final newline, and misses random other words", () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const next = random(seed);
      const words = [...new Set(Array.from({ length: 1 + Math.floor(next() * 300) }, () => randomWord(next)))].sort(byBytes);
      const text = words.join("\n") + (seed % 2 === 0 ? "\n" : "");
      const sorted = readSortedLines(Buffer.from(text, "utf8"), words.length);
      expect(sorted, `seed ${seed}`).toBeDefined();
      for (const [index, word] of words.entries()) expect(sorted?.indexOf(word), `seed ${seed}: ${word}`).toBe(index);
      const held = new Set(words);
      for (let probe = 0; probe < 200; probe += 1) {
        const word = randomWord(next);
        expect(sorted?.indexOf(word), `seed ${seed}: ${word}`).toBe(held.has(word) ? words.indexOf(word) : -1);
      }
    }
  });

  it("gives undefined for lines out of byte order, a repeat, an empty line, or another count", () => {
    const read = (text: string, count: number) => readSortedLines(Buffer.from(text, "utf8"), count);
    expect(read("a\nb\nc\n", 3)).toBeDefined();
    expect(read("a\nc\nb\n", 3)).toBeUndefined();
    expect(read("a\nb\nb\n", 3)).toBeUndefined();
    expect(read("a\n\nb\n", 3)).toBeUndefined();
    expect(read("a\nb\n\n", 3)).toBeUndefined();
    expect(read("a\nb\nc\n", 2)).toBeUndefined();
    expect(read("a\nb\nc\n", 4)).toBeUndefined();
    expect(read("", 1)).toBeUndefined();
    // Sorted by UTF-16 code units (a surrogate pair before U+FF21) but not by bytes.
    expect("𠀀" < "Ａ").toBe(true);
    expect(read("𠀀\nＡ\n", 2)).toBeUndefined();
    expect(read("Ａ\n𠀀\n", 2)?.indexOf("𠀀")).toBe(1);
  });
});
