import { describe, expect, it } from "vitest";
import { containsTerm, prepareTerm, prepareTerms } from "./contains-term.js";
import { normalizeText } from "./normalize-text.js";

const term = (text: string) => {
  const prepared = prepareTerm(text);
  if (!prepared) throw new Error("blank term");
  return prepared;
};

describe("containsTerm", () => {
  it("matches Latin terms on word boundaries, CJK terms by substring", () => {
    expect(containsTerm("the api gateway", term("API"))).toBe(true);
    expect(containsTerm("rapid growth", term("api"))).toBe(false);
    expect(containsTerm("api网关", term("api"))).toBe(true);
    expect(containsTerm("申请退款需要", term("退款"))).toBe(true);
    expect(containsTerm("c++ and rust", term("C++"))).toBe(true);
  });

  it("matches multi-word terms across any white space in long text", () => {
    expect(containsTerm(normalizeText("Rate\n  Limit applies"), term("rate limit"))).toBe(true);
    expect(containsTerm(normalizeText("firstrate limits"), term("rate limit"))).toBe(false);
  });

  it("folds width, case and white space of a term, and refuses blank terms", () => {
    expect(term("  ＡＰＩ\tRate   Limit ").normalized).toBe("api rate limit");
    expect(prepareTerm(" \u200b ")).toBeUndefined();
  });

  it("prepares distinct terms by normalised form, keeping the first spelling", () => {
    expect(prepareTerms(["API", "ａｐｉ", "Gateway"]).map((prepared) => prepared.display)).toEqual(["API", "Gateway"]);
  });
});
