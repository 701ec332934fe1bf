import { describe, expect, it } from "vitest";
import { dailyCounts, maxChartDays } from "./daily-counts.js";

describe("issue 37 item 3: the Gaps view's counts over time", () => {
  it("issue 37 item 3: every day from the first to the last, the days without lookups as 0, oldest first", () => {
    const { days, cut } = dailyCounts([
      { day: "2026-03-16", lookups: 1 },
      { day: "2026-03-14", lookups: 2 },
      { day: "2026-03-16", lookups: 3 },
    ]);
    expect(days).toEqual([
      { day: "2026-03-14", count: 2 },
      { day: "2026-03-15", count: 0 },
      { day: "2026-03-16", count: 4 },
    ]);
    expect(cut).toBe(false);
  });

  it("issue 37 item 3: a period given spans the whole period (UTC days), before the first lookup and after the last", () => {
    const { days } = dailyCounts([{ day: "2026-03-15", lookups: 1 }], {
      from: new Date("2026-03-13T10:00:00Z"),
      to: new Date("2026-03-16T08:00:00+09:00"),
    });
    expect(days.map((day) => `${day.day}:${day.count}`)).toEqual(["2026-03-13:0", "2026-03-14:0", "2026-03-15:1"]);
  });

  it("issue 37 item 3: a period longer than the chart keeps its latest days and says it cut; a day that is not a date is left out", () => {
    const { days, cut } = dailyCounts([
      { day: "2024-01-01", lookups: 5 },
      { day: "2026-03-15", lookups: 1 },
      { day: "<b>2026-03-14</b>", lookups: 9 },
    ]);
    expect(days).toHaveLength(maxChartDays);
    expect(days[days.length - 1]).toEqual({ day: "2026-03-15", count: 1 });
    expect(days.reduce((sum, day) => sum + day.count, 0)).toBe(1);
    expect(cut).toBe(true);
    expect(dailyCounts([])).toEqual({ days: [], cut: false });
  });
});
