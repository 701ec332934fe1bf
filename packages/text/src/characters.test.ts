import { describe, expect, it } from "vitest";
import { characterCount, containsCjk, isWordCharacter } from "./characters.js";
import { cleanText, foldText } from "./clean-text.js";
import { normalizeText } from "./normalize-text.js";

describe("characters and normalisation", () => {
  it("detects CJK text", () => {
    expect(containsCjk("tidb集群")).toBe(true);
    expect(containsCjk("キャッシュ")).toBe(true);
    expect(containsCjk("서버")).toBe(true);
    expect(containsCjk("rate limit")).toBe(false);
  });

  it("tells word characters of spaced scripts from CJK characters and separators", () => {
    expect(["a", "é", "7", "я", "集", "-", " ", undefined].map(isWordCharacter)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it("folds width and case with NFKC and lower case", () => {
    expect(normalizeText("ＡＰＩ Gateway")).toBe("api gateway");
    expect(normalizeText("ｷｬｯｼｭ")).toBe("キャッシュ");
  });

  it("cleans control and invisible characters and white space, keeping case unless folded", () => {
    expect(cleanText("  Rate\u200b\tＬimit\u0007 ")).toBe("Rate Limit");
    expect(foldText("  Rate\u200b\tＬimit ")).toBe("rate limit");
  });

  it("counts code points, not UTF-16 units", () => {
    expect(characterCount("𠮷野家")).toBe(3);
  });
});
