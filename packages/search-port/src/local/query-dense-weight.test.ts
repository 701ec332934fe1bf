import { describe, expect, it } from "vitest";
import { queryDenseWeight } from "./query-dense-weight.js";

const weights = { denseWeight: 0.3, cjkDenseWeight: 0.1 };

describe("queryDenseWeight", () => {
  it("takes denseWeight for a query without CJK terms and cjkDenseWeight for one of CJK terms only", () => {
    expect(queryDenseWeight(["rate", "limit"], weights)).toBe(0.3);
    expect(queryDenseWeight(["限流", "插件"], weights)).toBeCloseTo(0.1, 12);
  });

  it("mixes the two by the share of distinct CJK terms, a repeated term counting once", () => {
    // "TiDB 的 SQL 优化": two Latin terms and two CJK ones (one repeated).
    expect(queryDenseWeight(["tidb", "sql", "优化", "优化", "索引"], weights)).toBeCloseTo(0.2, 12);
  });

  it("takes denseWeight for a query with no terms, and either when the two are equal", () => {
    expect(queryDenseWeight([], weights)).toBe(0.3);
    expect(queryDenseWeight(["限流"], { denseWeight: 0, cjkDenseWeight: 0 })).toBe(0);
  });
});
