import { describe, expect, it } from "vitest";
import { findTerm } from "./lexicon.js";
import { maxPieceCharacters, withUnseenCjkPieces } from "./unseen-cjk-pieces.js";

const terms = ["api", "发票", "同步", "开具", "插件", "漏桶", "限流"].sort();
const lexiconOf = (list: readonly string[]) => ({ find: (term: string) => findTerm(list, term) });
const lexicon = lexiconOf(terms);

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

  it("splits a 5,000-character unseen CJK run in linear work, parts capped at eight characters", () => {
    // 4 unknown characters then a known word, repeated: 5,000 characters in all.
    const unit = "甲乙丙丁发票";
    const run = unit.repeat(Math.ceil(5000 / unit.length)).slice(0, 5000);
    expect([...run]).toHaveLength(5000);
    const started = Date.now();
    const pieces = withUnseenCjkPieces([run], lexicon);
    // Generous: the uncapped search took minutes on such a run (~2·10^10 character copies).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(pieces).toEqual(Array.from({ length: Math.floor(5000 / unit.length) }, () => "发票"));
  }, 30_000);

  it("does not find a known word longer than the cap as a part", () => {
    const long = "一二三四五六七八九";
    expect(maxPieceCharacters).toBe(8);
    expect(withUnseenCjkPieces([`开${long}`], lexiconOf([...terms, long].sort()))).toEqual([`开${long}`]);
    expect(withUnseenCjkPieces([`开${long.slice(0, 8)}`], lexiconOf([...terms, long.slice(0, 8)].sort()))).toEqual([long.slice(0, 8)]);
  });
});
