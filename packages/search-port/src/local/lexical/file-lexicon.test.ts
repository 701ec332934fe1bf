import { describe, expect, it } from "vitest";
import { postingsCacheBytes, postingsCacheLimit } from "./file-lexicon.js";

describe("issue 14: how much of the postings a reader keeps", () => {
  it("keeps a quarter of the postings file, at least the floor and at most the ceiling", () => {
    expect(postingsCacheLimit(0)).toBe(postingsCacheBytes.least);
    expect(postingsCacheLimit(10 * 1024 * 1024)).toBe(postingsCacheBytes.least);
    // The 100,000-chunk bench index: a 52 MB postings file.
    expect(postingsCacheLimit(52_191_824)).toBe(13_047_956);
    // The million-chunk bench index: a 519 MB postings file.
    expect(postingsCacheLimit(518_867_984)).toBe(postingsCacheBytes.most);
    expect(postingsCacheLimit(10 * 1024 ** 3)).toBe(postingsCacheBytes.most);
  });
});
