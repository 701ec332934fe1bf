import { describe, expect, it } from "vitest";
import { containsTerm, extractQueryTerms, normalizeLongText, normalizeText, prepareTerm } from "./text.js";

const term = (text: string) => {
  const prepared = prepareTerm(text);
  if (!prepared) throw new Error("blank term");
  return prepared;
};

describe("text matching", () => {
  it("normalises width and case with NFKC and collapses white space", () => {
    expect(normalizeText("  ＡＰＩ\tRate   Limit ")).toBe("api rate limit");
  });

  it("extracts Latin words of 3+ characters and CJK words of 2+ that are not stop words", () => {
    expect(extractQueryTerms("How do I get a refund for the Webhook API?").map((t) => t.normalized)).toEqual([
      "refund",
      "webhook",
      "api",
    ]);
    expect(extractQueryTerms("如何申请退款").map((t) => t.normalized)).toEqual(["申请", "退款"]);
  });

  it("matches Latin terms on word boundaries, CJK terms by substring", () => {
    expect(containsTerm("the api gateway", term("API"))).toBe(true);
    expect(containsTerm("rapid growth", term("api"))).toBe(false);
    expect(containsTerm("api网关", term("api"))).toBe(true);
    expect(containsTerm("申请退款需要", term("退款"))).toBe(true);
    expect(containsTerm("c++ and rust", term("C++"))).toBe(true);
  });

  it("matches multi-word terms across any white space in long text", () => {
    expect(containsTerm(normalizeLongText("Rate\n  Limit applies"), term("rate limit"))).toBe(true);
    expect(containsTerm(normalizeLongText("firstrate limits"), term("rate limit"))).toBe(false);
  });
});
