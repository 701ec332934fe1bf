import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { JiebaDictionary } from "./jieba-dictionary.js";
import { bundledDictionaryTotal, readBundledDictionary } from "./load-jieba.js";

const knowledgeBaseZh = fileURLToPath(new URL("../../../examples/knowledge-base/zh/", import.meta.url));
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The CJK runs of the example knowledge base's Chinese pages, distinct. */
function exampleRuns(): string[] {
  const files = readdirSync(knowledgeBaseZh, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".md"));
  const text = files.map((file) => readFileSync(join(knowledgeBaseZh, file), "utf8")).join("\n");
  return [
    ...new Set(
      text
        .normalize("NFKC")
        .toLowerCase()
        .match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu) ?? [],
    ),
  ];
}

/** The words (and their lines) a small dictionary holds, the line for the rest apart. */
function linesOf(dictionary: Uint8Array): { words: Map<string, string>; rest: string[] } {
  const words = new Map<string, string>();
  const rest: string[] = [];
  for (const line of decoder.decode(dictionary).split("\n")) {
    if (line === "") continue;
    const word = line.split(" ")[0] as string;
    if (word === "\ue000") rest.push(line);
    else words.set(word, line);
  }
  return { words, rest };
}

/** What the small dictionary must hold, worked out the slow way: every substring looked up in the whole dictionary. */
function expectedWords(whole: Map<string, string>, runs: readonly string[]): Map<string, string> {
  const expected = new Map<string, string>();
  for (const run of runs) {
    const characters = Array.from(run);
    for (let start = 0; start < characters.length; start += 1) {
      for (let end = start + 1; end <= Math.min(characters.length, start + 16); end += 1) {
        const word = characters.slice(start, end).join("");
        const line = whole.get(word);
        if (line !== undefined) expected.set(word, line);
      }
    }
  }
  return expected;
}

describe("JiebaDictionary", () => {
  const bytes = readBundledDictionary();
  const whole = new Map(
    decoder
      .decode(bytes)
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => [line.split(" ")[0] as string, line] as const),
  );

  it("issue 14: the bundled dictionary is sorted, and the recorded total of its frequencies is right", () => {
    const dictionary = new JiebaDictionary(bytes);
    expect(() => dictionary.assertSorted()).not.toThrow();
    expect(bytes.length).toBe(bundledDictionaryTotal.bytes);
    expect(dictionary.frequencyTotal()).toBe(bundledDictionaryTotal.total);
    let sum = 0;
    for (const line of whole.values()) sum += Number(line.split(" ")[1]);
    expect(sum).toBe(bundledDictionaryTotal.total);
    // The search looks for words of at most 16 characters.
    let longest = 0;
    for (const word of whole.keys()) longest = Math.max(longest, Array.from(word).length);
    expect(longest).toBe(16);
  });

  it("issue 14: a small dictionary holds exactly the words that occur in the runs, and one line with the rest of the total", () => {
    const runs = [
      ...exampleRuns(),
      "限流插件支持分布式限流",
      // White space, ASCII, a word with ASCII in it (B超), a character outside the BMP, the rest word itself.
      "负载 均衡\n网关",
      "做b超和B超检查",
      "𠀀中华人民共和国",
      "\ue000限流",
      "",
    ];
    const dictionary = new JiebaDictionary(bytes, bundledDictionaryTotal.total);
    const { words, rest } = linesOf(dictionary.dictionaryFor(runs));
    const expected = expectedWords(whole, runs);
    expect(expected.size).toBeGreaterThan(1000);
    expect([...words.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [word, line] of words) expect(line).toBe(expected.get(word));
    expect(words.has("B超")).toBe(true);
    expect(words.has("中华人民共和国")).toBe(true);
    let found = 0;
    for (const line of words.values()) found += Number(line.split(" ")[1]);
    expect(rest).toEqual([`\ue000 ${bundledDictionaryTotal.total - found} x`]);
  });

  it("issue 14: runs with no dictionary word give only the rest line", () => {
    const dictionary = new JiebaDictionary(bytes, bundledDictionaryTotal.total);
    expect(decoder.decode(dictionary.dictionaryFor(["", "  ", "\u0000\u0001", "ｚ"]))).toBe(`\ue000 ${bundledDictionaryTotal.total} x\n`);
  });

  it("issue 14: works on a sorted dictionary of words of up to 16 characters, its last line with or without a line break or frequency; refuses an unsorted one", () => {
    const small = encoder.encode("中 5 n\n中国 7 ns\n中国人 2 n\n人 4 n\n国 3 n");
    const dictionary = new JiebaDictionary(small);
    expect(dictionary.frequencyTotal()).toBe(21);
    expect(decoder.decode(dictionary.dictionaryFor(["中国人"]))).toBe("中 5 n\n中国 7 ns\n中国人 2 n\n人 4 n\n国 3 n\n\ue000 0 x\n");
    expect(decoder.decode(dictionary.dictionaryFor(["国中"]))).toBe("中 5 n\n国 3 n\n\ue000 13 x\n");
    expect(decoder.decode(new JiebaDictionary(encoder.encode("中 5 n\n国")).dictionaryFor(["中国"]))).toBe("中 5 n\n国\n\ue000 0 x\n");
    const unsorted = new JiebaDictionary(encoder.encode("中国 7 ns\n中 5 n\n"));
    expect(() => unsorted.assertSorted()).toThrow(/does not sort after the one before/);
  });
});
