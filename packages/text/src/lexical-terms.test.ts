import { describe, expect, it } from "vitest";
import { analyzerVersion } from "./analyzer-version.js";
import { lexicalTermIds, lexicalTermIdsView, lexicalTerms } from "./lexical-terms.js";
import { TermNumbering } from "./term-numbering.js";

describe("lexicalTerms", () => {
  it("lower-cases, drops stop words and question words, and Porter-stems English", () => {
    expect(lexicalTerms("How are the Refunds being processed?")).toEqual(["refund", "process"]);
    expect(lexicalTerms("running runs ran")).toEqual(["run", "run", "ran"]);
  });

  it("keeps words with digits or other scripts as they are", () => {
    expect(lexicalTerms("Straße café v20")).toEqual(["straße", "café", "v20"]);
  });

  it("splits snake, kebab, dotted and camel case names into their parts, without the joined compound", () => {
    expect(lexicalTerms("keyAuth key_auth key-auth")).toEqual(["kei", "auth", "kei", "auth", "kei", "auth"]);
    expect(lexicalTerms("HTTPServer node.js")).toEqual(["http", "server", "node", "js"]);
  });

  it("normalises with NFKC (full-width letters, ligatures)", () => {
    expect(lexicalTerms("ＡＰＩ ﬁle")).toEqual(["api", "file"]);
  });

  it("turns runs of Chinese characters into bigrams, a lone character into itself unless a stop word", () => {
    expect(lexicalTerms("提升建表性能", { cjk: "bigrams" })).toEqual(["提升", "升建", "建表", "表性", "性能"]);
    expect(lexicalTerms("表", { cjk: "bigrams" })).toEqual(["表"]);
    expect(lexicalTerms("的")).toEqual([]);
  });

  it("cuts Chinese runs at question words and particles before making bigrams", () => {
    expect(lexicalTerms("限流插件如何配置", { cjk: "bigrams" })).toEqual(["限流", "流插", "插件", "配置"]);
    expect(lexicalTerms("返回什么状态码吗", { cjk: "bigrams" })).toEqual(["返回", "状态", "态码"]);
  });

  it("gives the dictionary words of Chinese runs by default, stop words out", () => {
    expect(lexicalTerms("限流插件如何配置")).toEqual(["限流", "插件", "配置"]);
    expect(lexicalTerms("基于Redis集群的分布式限流")).toEqual(["基于", "redi", "集群", "分布式", "限流"]);
  });

  it("adds the dictionary words of three or more characters to the bigrams with words+bigrams", () => {
    expect(lexicalTerms("分布式限流", { cjk: "words+bigrams" })).toEqual(["分布", "布式", "式限", "限流", "分布式"]);
  });

  it("handles mixed English and Chinese text, and Japanese and Korean runs", () => {
    expect(lexicalTerms("TiDB 的 SQL 优化")).toEqual(["ti", "db", "sql", "优化"]);
    expect(lexicalTerms("환불 정책", { cjk: "bigrams" })).toEqual(["환불", "정책"]);
  });

  it("drops words longer than 64 characters", () => {
    expect(lexicalTerms(`key ${"a1".repeat(40)}`)).toEqual(["kei"]);
  });

  it("gives the terms pinned to analyzerVersion (bump the version when this changes)", () => {
    const sample = "How does APISIX's limit-count plugin use Redis? getUserName node.js C++ 如何配置分布式限流插件";
    expect({ analyzerVersion, terms: lexicalTerms(sample) }).toEqual({
      analyzerVersion: "lookup-knowledge-text/1 (nfkc-lower, split-case, stop-en-zh, porter, cjk-words jieba-2.0.3)",
      terms: ["apisix", "limit", "count", "plugin", "redi", "user", "name", "node", "js", "c++", "配置", "分布式", "限流", "插件"],
    });
  });

  it("issue 36 item 4: lexicalTermIds gives the terms' ids, numbered in the order lexicalTerms gives the terms (CJK runs cut at the end included)", () => {
    for (const cjk of ["words", "bigrams", "words+bigrams"] as const) {
      const text = "Rate limits 如何配置基于Redis集群的分布式限流 limitCount 限流 插件 rate";
      const numbering = new TermNumbering();
      const terms = lexicalTerms(text, { cjk });
      expect(
        Array.from(lexicalTermIds(text, numbering, { cjk }), (id) => numbering.terms[id]),
        cjk,
      ).toEqual(terms);
      expect(numbering.terms, cjk).toEqual([...new Set(terms)]);
    }
  });

  it("issue 36 item 4: lexicalTermIdsView gives lexicalTermIds' ids in the array they were gathered in, which the next text overwrites (lexicalTermIds' copy stays)", () => {
    const numbering = new TermNumbering();
    const first = "Rate limiting: the limit-count plugin limits getUserName HTTPServer requests";
    const copied = lexicalTermIds(first, numbering);
    const view = lexicalTermIdsView(first, numbering);
    expect([...view]).toEqual([...copied]);
    expect(copied.length).toBeGreaterThan(5);
    lexicalTermIdsView("zebra zebra zebra zebra zebra zebra zebra zebra zebra zebra", numbering);
    expect([...view]).not.toEqual([...copied]);
    expect([...lexicalTermIds(first, numbering)]).toEqual([...copied]);
  });
});
