import { describe, expect, it } from "vitest";
import { printable } from "./printable.js";

describe("printable", () => {
  it("shows control characters as U+FFFD", () => {
    expect(printable("a\u001b[2Jb\u0007c\nd")).toBe("a\uFFFD[2Jb\uFFFDc\uFFFDd");
  });

  it("shows bidirectional overrides, zero-width characters and the line and paragraph separators as U+FFFD", () => {
    expect(printable("invoice\u202Efdp.exe")).toBe("invoice\uFFFDfdp.exe");
    expect(printable("\u2066isolated\u2069 \u200Bzero\u200Dwidth\uFEFF")).toBe("\uFFFDisolated\uFFFD \uFFFDzero\uFFFDwidth\uFFFD");
    expect(printable("line\u2028next\u2029para")).toBe("line\uFFFDnext\uFFFDpara");
  });

  it("keeps ordinary text, accents, CJK and emoji as they are", () => {
    const text = "Café 請求書 ✅ — “quotes” ü";
    expect(printable(text)).toBe(text);
  });
});
