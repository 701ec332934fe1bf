import { describe, expect, it } from "vitest";
import { splitWords, wordTokens } from "./split-words.js";

const texts = (text: string, options?: Parameters<typeof splitWords>[1]) => splitWords(text, options).map((token) => token.text);

describe("splitWords", () => {
  it("splits words at punctuation, spaces and CJK characters", () => {
    expect(wordTokens("how do i set a rate-limit?")).toEqual(["how", "do", "i", "set", "a", "rate", "limit"]);
    expect(wordTokens("如何配置api限流")).toEqual(["api"]);
    expect(wordTokens("café über straße")).toEqual(["café", "über", "straße"]);
  });

  it("keeps + and # after a word on it, so C++ and C# stay words", () => {
    expect(wordTokens("node.js v20 C++ c# a+b")).toEqual(["node", "js", "v20", "c++", "c#", "a+", "b"]);
    expect(texts("c++ c#", { wordSuffixes: false })).toEqual(["c", "c"]);
  });

  it("gives CJK runs as tokens of their own, in text order", () => {
    expect(splitWords("使用TiDB建表").map((token) => [token.kind, token.text])).toEqual([
      ["cjk", "使用"],
      ["word", "tidb"],
      ["cjk", "建表"],
    ]);
  });

  it("splits at case changes only when asked", () => {
    expect(texts("getUserName HTTPServer X509Certificate")).toEqual(["getusername", "httpserver", "x509certificate"]);
    expect(texts("getUserName HTTPServer X509Certificate", { caseChanges: true })).toEqual([
      "get",
      "user",
      "name",
      "http",
      "server",
      "x509",
      "certificate",
    ]);
  });

  it("gives the joined compound after the parts of snake, kebab, dotted and camel case names when asked", () => {
    expect(texts("rate_limit rate-limit rateLimit", { caseChanges: true, compounds: true })).toEqual([
      "rate",
      "limit",
      "ratelimit",
      "rate",
      "limit",
      "ratelimit",
      "rate",
      "limit",
      "ratelimit",
    ]);
    expect(texts("node.js", { compounds: true })).toEqual(["node", "js", "nodejs"]);
  });

  it("makes no compound of paths, spaced words, numbers or words glued by two characters", () => {
    expect(texts("/usr/local rate limit 1.5 a--b", { compounds: true })).toEqual(["usr", "local", "rate", "limit", "1", "5", "a", "b"]);
  });

  it("marks where a phrase goes on: not across sentence punctuation, line breaks or CJK", () => {
    const phrase = splitWords("rate limit, per key. next\nline 限流 after").map((token) => token.continuesPhrase);
    expect(phrase).toEqual([false, true, true, true, false, false, false, false]);
  });

  it("normalises with NFKC and lower case", () => {
    expect(texts("ＡＰＩ ﬁle ｷｬｯｼｭ")).toEqual(["api", "file", "キャッシュ"]);
  });
});
