import { describe, expect, it } from "vitest";
import { extractTerms } from "./extract-terms.js";

describe("extractTerms", () => {
  it("lower-cases and splits Latin text into words, marking phrase breaks", () => {
    expect(extractTerms("Rate-Limiting in Node.js. Why?")).toEqual({
      words: ["rate", "limiting", "in", "node", "js", "why"],
      continuesPhrase: [false, true, true, true, false, false],
      cjkGrams: [],
    });
  });

  it("folds full-width letters with NFKC", () => {
    expect(extractTerms("ＡＰＩ Gateway").words).toEqual(["api", "gateway"]);
  });

  it("cuts CJK runs into overlapping character bigrams, apart from Latin words", () => {
    const terms = extractTerms("TiDB集群怎么扩容");
    expect(terms.words).toEqual(["tidb"]);
    expect(terms.cjkGrams).toEqual(["集群", "群怎", "怎么", "么扩", "扩容"]);
  });

  it("keeps a lone CJK character, and handles characters outside the BMP", () => {
    expect(extractTerms("网 关").cjkGrams).toEqual(["网", "关"]);
    expect(extractTerms("𠀀𠀁").cjkGrams).toEqual(["𠀀𠀁"]);
  });

  it("breaks the phrase at a CJK run", () => {
    expect(extractTerms("redis 集群 cluster").continuesPhrase).toEqual([false, false]);
  });

  it("finds nothing in empty or punctuation-only text", () => {
    expect(extractTerms("")).toEqual({ words: [], continuesPhrase: [], cjkGrams: [] });
    expect(extractTerms("  ?! -- ...")).toEqual({ words: [], continuesPhrase: [], cjkGrams: [] });
  });
});
