import { describe, expect, it } from "vitest";
import { compactText, containsCjk, normalizeText, stemToken, wordTokens } from "./text-normalization.js";

describe("text normalisation", () => {
  it("folds width and case with NFKC and lower case", () => {
    expect(normalizeText("ＡＰＩ Gateway")).toBe("api gateway");
    expect(normalizeText("ｷｬｯｼｭ")).toBe("キャッシュ");
  });

  it("splits words at punctuation, spaces and CJK characters", () => {
    expect(wordTokens("how do i set a rate-limit?")).toEqual(["how", "do", "i", "set", "a", "rate", "limit"]);
    expect(wordTokens("如何配置api限流")).toEqual(["api"]);
    expect(wordTokens("node.js v20 c++ c# a+b")).toEqual(["node", "js", "v20", "c++", "c#", "a+", "b"]);
    expect(wordTokens("café über straße")).toEqual(["café", "über", "straße"]);
  });

  it("lays CJK text out without spaces next to CJK characters, keeping them between other words", () => {
    expect(compactText("tidb 集群")).toBe("tidb集群");
    expect(compactText("  tidb   cloud  集群，怎么 扩容？ ")).toBe("tidb cloud集群怎么扩容");
    expect(compactText("mysql：慢查询日志")).toBe("mysql慢查询日志");
    expect(compactText("c++ 编译")).toBe("c++编译");
  });

  it("detects CJK text", () => {
    expect(containsCjk("tidb集群")).toBe(true);
    expect(containsCjk("キャッシュ")).toBe(true);
    expect(containsCjk("서버")).toBe(true);
    expect(containsCjk("rate limit")).toBe(false);
  });

  it("folds simple English plurals and leaves short words and -ss words alone", () => {
    expect(stemToken("webhooks")).toBe("webhook");
    expect(stemToken("webhook")).toBe("webhook");
    expect(stemToken("policies")).toBe(stemToken("policy"));
    expect(stemToken("cookies")).toBe(stemToken("cookie"));
    expect(stemToken("indexes")).toBe("index");
    expect(stemToken("classes")).toBe("class");
    expect(stemToken("access")).toBe("access");
    expect(stemToken("gas")).toBe("gas");
    expect(stemToken("100s")).toBe("100s");
  });
});
