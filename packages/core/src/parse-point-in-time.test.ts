import { describe, expect, it } from "vitest";
import { fallbackReasons, isFallbackReason } from "./fallback-reasons.js";
import { parsePointInTime } from "./parse-point-in-time.js";

const now = new Date("2026-06-01T12:00:00Z");

describe("parsePointInTime, the since filter of `traces` and of the inspector", () => {
  it("issue 13: reads ages before now in s, m, h, d and w, whole or decimal, the unit in either case", () => {
    const ago = (text: string) => now.getTime() - (parsePointInTime(text, now)?.getTime() ?? Number.NaN);
    expect([ago("90s"), ago("30m"), ago("1.5h"), ago("7d"), ago("2W"), ago(" 1 h ")]).toEqual([
      90_000, 1_800_000, 5_400_000, 604_800_000, 1_209_600_000, 3_600_000,
    ]);
  });

  it("issue 13: reads ISO dates, with or without a time and an offset", () => {
    expect(parsePointInTime("2025-03-14", now)?.toISOString()).toBe("2025-03-14T00:00:00.000Z");
    expect(parsePointInTime("2025-03-14T09:00:00Z", now)?.toISOString()).toBe("2025-03-14T09:00:00.000Z");
    expect(parsePointInTime("2025-03-14T09:00+02:00", now)?.toISOString()).toBe("2025-03-14T07:00:00.000Z");
  });

  it("issue 13: refuses anything else, and times a Date cannot hold", () => {
    for (const text of ["", "yesterday", "1.5", "7 days", "1e3d", "-1h", "2025-13-45", "2025-03-14garbage", `${"9".repeat(20)}d`]) {
      expect({ text, parsed: parsePointInTime(text, now) }).toEqual({ text, parsed: undefined });
    }
  });

  it("issue 13: the fallback reasons a filter accepts are every FallbackReason, and nothing else", () => {
    expect([...fallbackReasons].sort()).toEqual(["filtered_vector_error", "filtered_vector_low_quality", "filtered_vector_no_evidence"]);
    expect(fallbackReasons.every(isFallbackReason)).toBe(true);
    expect([isFallbackReason("toString"), isFallbackReason("nope")]).toEqual([false, false]);
  });
});
