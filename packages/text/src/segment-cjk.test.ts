import { describe, expect, it } from "vitest";
import { cjkBigrams, cjkWords, segmentCjk } from "./segment-cjk.js";

describe("CJK segmentation", () => {
  it("makes overlapping bigrams, a lone character its own term", () => {
    expect(cjkBigrams("提升建表")).toEqual(["提升", "升建", "建表"]);
    expect(cjkBigrams("表")).toEqual(["表"]);
    expect(cjkBigrams("")).toEqual([]);
  });

  it("finds dictionary words with the bundled jieba dictionary", () => {
    expect(cjkWords("限流插件支持分布式限流")).toEqual(["限流", "插件", "支持", "分布式", "限流"]);
  });

  it("leaves stop words out of every segmentation", () => {
    expect(segmentCjk("的", "bigrams")).toEqual([]);
    expect(segmentCjk("如何配置", "words")).toEqual(["配置"]);
    expect(segmentCjk("如何配置", "words+bigrams")).toEqual(["配置"]);
  });
});
