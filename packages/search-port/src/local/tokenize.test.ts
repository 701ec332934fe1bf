import { describe, expect, it } from "vitest";
import { tokenize } from "./tokenize.js";

describe("tokenize", () => {
  it("lower-cases, drops stop words and question words, and Porter-stems English", () => {
    expect(tokenize("How are the Refunds being processed?")).toEqual(["refund", "process"]);
    expect(tokenize("running runs ran")).toEqual(["run", "run", "ran"]);
  });

  it("keeps words with digits or other scripts as they are and splits on punctuation", () => {
    expect(tokenize("TiDB v7.6.0 tidb_ddl_version")).toEqual(["tidb", "v7", "6", "0", "tidb", "ddl", "version"]);
    expect(tokenize("Straße café")).toEqual(["straße", "café"]);
  });

  it("normalises with NFKC (full-width letters, ligatures)", () => {
    expect(tokenize("ＡＰＩ ﬁle")).toEqual(["api", "file"]);
  });

  it("turns runs of Chinese characters into overlapping bigrams, a lone character into itself", () => {
    expect(tokenize("提升建表性能")).toEqual(["提升", "升建", "建表", "表性", "性能"]);
    expect(tokenize("表")).toEqual(["表"]);
    expect(tokenize("的")).toEqual([]);
  });

  it("cuts Chinese runs at question words and particles before making bigrams", () => {
    expect(tokenize("限流插件如何配置")).toEqual(["限流", "流插", "插件", "配置"]);
    expect(tokenize("返回什么状态码吗")).toEqual(["返回", "状态", "态码"]);
  });

  it("handles mixed English and Chinese text", () => {
    expect(tokenize("TiDB 的 SQL 优化")).toEqual(["tidb", "sql", "优化"]);
    expect(tokenize("使用TiDB建表")).toEqual(["使用", "tidb", "建表"]);
  });

  it("handles Japanese and Korean runs as bigrams too", () => {
    expect(tokenize("返金ポリシー")).toEqual(["返金", "金ポ", "ポリ", "リシ", "シー"]);
    expect(tokenize("환불 정책")).toEqual(["환불", "정책"]);
  });

  it("drops words longer than 64 characters", () => {
    expect(tokenize(`key ${"a1".repeat(40)}`)).toEqual(["kei"]);
  });
});
