import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256 } from "./sha256.js";

describe("sha256", () => {
  it("issue 36 item 6: the one-shot hash gives createHash's hex digest, for text as UTF-8 and for bytes", () => {
    for (const value of ["", "héllo wörld", "限流插件 limit-req", "\ufeff# Title\n", "x".repeat(100_000)]) {
      expect(sha256(value)).toBe(createHash("sha256").update(value).digest("hex"));
      const bytes = new TextEncoder().encode(value);
      expect(sha256(bytes)).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect(sha256(bytes)).toBe(sha256(value));
    }
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
