import { InvalidQueryError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { normalizeQuery } from "./normalize-query.js";
import { transformQuery } from "./transform-query.js";

describe("normalizeQuery", () => {
  it("R3: trims, applies NFKC, removes control and invisible characters and collapses whitespace", () => {
    expect(normalizeQuery("  ｔｉｄｂ\u3000集群\u0000  扩容\u200b \r\n", 100)).toEqual({ normalized: "tidb 集群 扩容", truncated: false });
    expect(normalizeQuery("ﬁle\u202Eabc", 100).normalized).toBe("fileabc");
  });

  it("R3: bounds the length, at a word boundary when one is near", () => {
    expect(normalizeQuery("alpha beta gamma delta", 13)).toEqual({ normalized: "alpha beta", truncated: true });
    expect(normalizeQuery("abcdefghijklmnopqrstuvwxyz", 16)).toEqual({ normalized: "abcdefghijklmnop", truncated: true });
    const huge = normalizeQuery("x ".repeat(1_000_000), 1000);
    expect(huge.normalized.length).toBeLessThanOrEqual(1000);
    expect(huge.truncated).toBe(true);
  });

  it("R3: padding before the text cannot push it past the bound", () => {
    expect(normalizeQuery(`${" ".repeat(5000)}\u0000${"\u200b".repeat(500)}refund`, 100)).toEqual({
      normalized: "refund",
      truncated: false,
    });
  });

  it("R3: never cuts a surrogate pair in two", () => {
    const { normalized } = normalizeQuery(`a${"😀".repeat(600)}`, 100);
    expect(normalized.length).toBeLessThanOrEqual(100);
    expect(normalized).toBe(`a${"😀".repeat(49)}`);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(normalized)).toBe(false);
  });

  it("refuses non-strings and queries with no text", () => {
    for (const value of [undefined, 3, {}, "", " \t", "\u0001\u200b"]) {
      expect(() => normalizeQuery(value, 100)).toThrow(InvalidQueryError);
    }
  });
});

describe("transformQuery", () => {
  const hints = {
    titles: [],
    keywords: [],
    domains: [],
    entities: ["TiDB"],
    entries: [
      {
        id: "a",
        source: "a.md",
        entities: ["TiDB", "TiDB Server", "tidb-server", "PD", "TiKV"],
        matches: [{ field: "entity" as const, term: "TiDB" }],
      },
    ],
  };

  it("R3: leaves the query alone without expansion", () => {
    const result = transformQuery({ received: " TiDB memory ", normalized: "TiDB memory", truncated: false }, hints, { expansion: false });
    expect(result).toMatchObject({ transformed: "TiDB memory", addedTerms: [] });
  });

  it("R3: adds at most three entity aliases the query does not already hold", () => {
    const result = transformQuery({ received: "TiDB memory", normalized: "TiDB memory", truncated: false }, hints, { expansion: true });
    expect(result.addedTerms).toEqual(["TiDB Server", "tidb-server", "PD"]);
    expect(result.transformed).toBe("TiDB memory TiDB Server tidb-server PD");
    expect(result.normalized).toBe("TiDB memory");
  });
});
