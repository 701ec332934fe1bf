import { describe, expect, it } from "vitest";
import { overlapTail, splitText } from "./split-text.js";

describe("splitText", () => {
  it("keeps a short text whole", () => {
    expect(splitText("  One sentence.  ", 100)).toEqual(["One sentence."]);
  });

  it("cuts at sentence ends within the budget", () => {
    const text = "First sentence is here. Second sentence is here. Third sentence is here.";
    const pieces = splitText(text, 50);
    expect(pieces).toEqual(["First sentence is here. Second sentence is here.", "Third sentence is here."]);
  });

  it("prefers line breaks, falls back to spaces, then to a hard cut", () => {
    expect(splitText("line one is long enough\nline two", 30)).toEqual(["line one is long enough", "line two"]);
    expect(splitText("word ".repeat(30).trim(), 40).every((piece) => piece.length <= 40 && !piece.includes("wor d"))).toBe(true);
    const cjk = "数据库".repeat(50);
    const pieces = splitText(cjk, 40);
    expect(pieces.every((piece) => piece.length <= 40)).toBe(true);
    expect(pieces.join("")).toBe(cjk);
  });

  it("cuts CJK text after full stops and never inside a surrogate pair", () => {
    expect(splitText("第一句话在这里。第二句话在这里。第三句话在这里。", 17)).toEqual([
      "第一句话在这里。第二句话在这里。",
      "第三句话在这里。",
    ]);
    const emoji = "😀".repeat(30);
    for (const piece of splitText(emoji, 11)) expect(piece).toMatch(/^(?:😀)+$/u);
  });
});

describe("overlapTail", () => {
  it("starts at a sentence start when one is in reach", () => {
    const text = "A first long sentence that goes on and on. The tail sentence.";
    expect(overlapTail(text, 30)).toBe("The tail sentence.");
  });

  it("falls back to a word start, then to a character", () => {
    expect(overlapTail("one two three four five six seven", 12)).toBe("six seven");
    expect(overlapTail("数据库数据库数据库", 4)).toBe("据库数据库".slice(1));
  });

  it("returns the whole text when it is short and nothing for a zero limit", () => {
    expect(overlapTail("Short.", 50)).toBe("Short.");
    expect(overlapTail("Anything at all.", 0)).toBe("");
  });
});
