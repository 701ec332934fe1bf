import { describe, expect, it } from "vitest";
import { IndexLockedError } from "./index-locked-error.js";

describe("IndexLockedError", () => {
  it("issue 36 (session 16, seen and left): the holder, read from an owner file another process wrote, is shown with its control and format characters escaped; the raw value stays in `holder`", () => {
    const holder = "process 7 on host evil\u001b]0;pwned\u0007\u001b[2J\u202Eexe (since 2026-01-01T00:00:00.000Z)";
    const error = new IndexLockedError({ directory: "/data/index", holder });
    expect(error.message).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    expect(error.message).toContain("(process 7 on host evil\uFFFD]0;pwned\uFFFD\uFFFD[2J\uFFFDexe (since 2026-01-01T00:00:00.000Z))");
    expect(error.holder).toBe(holder);
  });

  it("has no holder when none is known", () => {
    expect(new IndexLockedError({ directory: "/data/index" }).holder).toBeUndefined();
  });
});
