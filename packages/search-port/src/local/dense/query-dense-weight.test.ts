import { describe, expect, it } from "vitest";
import { queryDenseWeight } from "./query-dense-weight.js";

const weights = { denseWeight: 0.3, cjkDenseWeight: 0.1 };

describe("queryDenseWeight", () => {
  it("takes denseWeight for a query without CJK terms and cjkDenseWeight for one of CJK terms only", () => {
    expect(queryDenseWeight("rate limit", ["rate", "limit"], weights)).toBe(0.3);
    expect(queryDenseWeight("限流插件", ["限流", "插件"], weights)).toBeCloseTo(0.1, 12);
  });

  it("mixes the two by the share of distinct CJK terms, a repeated term counting once", () => {
    // Two Latin terms and two distinct CJK ones, one of them twice.
    expect(queryDenseWeight("sql tidb 优化 优化 索引", ["sql", "tidb", "优化", "优化", "索引"], weights)).toBeCloseTo(0.2, 12);
  });

  it("goes by the text's script when the query has no terms (stop words only)", () => {
    expect(queryDenseWeight("的是", [], weights)).toBeCloseTo(0.1, 12);
    expect(queryDenseWeight("the of", [], weights)).toBe(0.3);
  });

  it("takes the one weight when the two are equal, whatever the script", () => {
    expect(queryDenseWeight("sql 优化", ["sql", "优化"], { denseWeight: 0.2, cjkDenseWeight: 0.2 })).toBe(0.2);
  });
});
