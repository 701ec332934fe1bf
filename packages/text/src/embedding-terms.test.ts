import { describe, expect, it } from "vitest";
import { embeddingTerms } from "./embedding-terms.js";

describe("embeddingTerms", () => {
  it("gives unstemmed words, not split at case changes, CJK bigrams and the CJK runs", () => {
    expect(embeddingTerms("Running getUserName, 提升建表")).toEqual({
      words: ["running", "getusername"],
      continuesPhrase: [false, true],
      cjkGrams: ["提升", "升建", "建表"],
      cjkRuns: ["提升建表"],
    });
    expect(embeddingTerms("限流 rate 配置，插件").cjkRuns).toEqual(["限流", "配置", "插件"]);
  });

  it("ends phrases at sentence punctuation, line breaks and CJK runs", () => {
    const terms = embeddingTerms("rate limit. per key\nnext 限流 after");
    expect(terms.words).toEqual(["rate", "limit", "per", "key", "next", "after"]);
    expect(terms.continuesPhrase).toEqual([false, true, false, true, false, false]);
  });

  it("splits words at punctuation and drops + and #, and gives a lone CJK character as itself", () => {
    expect(embeddingTerms("node.js don't c++ 表").words).toEqual(["node", "js", "don", "t", "c"]);
    expect(embeddingTerms("表").cjkGrams).toEqual(["表"]);
  });
});
