import { describe, expect, it } from "vitest";
import { withUnseenCjkPieces } from "./unseen-cjk-pieces.js";

const lexicon = ["api", "发票", "同步", "开具", "插件", "漏桶", "限流"].sort();

describe("withUnseenCjkPieces", () => {
  it("replaces a CJK word the lexicon lacks by the known words inside it, longest first, left to right", () => {
    expect(withUnseenCjkPieces(["开发票"], lexicon)).toEqual(["发票"]);
    expect(withUnseenCjkPieces(["漏桶限流插件"], lexicon)).toEqual(["漏桶", "限流", "插件"]);
    expect(withUnseenCjkPieces(["开具发票同步"], lexicon)).toEqual(["开具", "发票", "同步"]);
  });

  it("keeps known words, words of other scripts, two-character words and words with no known part as they are", () => {
    expect(withUnseenCjkPieces(["发票", "api", "rate", "网关", "天气预报"], lexicon)).toEqual(["发票", "api", "rate", "网关", "天气预报"]);
  });

  it("keeps repeats, so a word asked twice still weighs twice", () => {
    expect(withUnseenCjkPieces(["开发票", "开发票"], lexicon)).toEqual(["发票", "发票"]);
  });
});
