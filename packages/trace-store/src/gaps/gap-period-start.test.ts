import { describe, expect, it } from "vitest";
import { defaultGapsSince, readGapPeriodStart } from "./gap-period-start.js";

const now = new Date("2026-03-02T10:00:00.000Z");

describe("readGapPeriodStart", () => {
  it("issue 37 item 1: reads an age or an ISO date, 30 days by default (nothing or blanks written)", () => {
    expect(defaultGapsSince).toBe("30d");
    expect(readGapPeriodStart(undefined, now)).toEqual({ since: new Date("2026-01-31T10:00:00.000Z") });
    expect(readGapPeriodStart("  ", now)).toEqual({ since: new Date("2026-01-31T10:00:00.000Z") });
    expect(readGapPeriodStart("12h", now)).toEqual({ since: new Date("2026-03-01T22:00:00.000Z") });
    expect(readGapPeriodStart("2026-02-01", now)).toEqual({ since: new Date("2026-02-01T00:00:00.000Z") });
  });

  it("issue 37 item 1: a start it cannot read, or one after now, is a problem rather than an empty period", () => {
    expect(readGapPeriodStart("last week", now)).toEqual({ problem: "unreadable" });
    expect(readGapPeriodStart("2026-03-03", now)).toEqual({ problem: "future", since: new Date("2026-03-03T00:00:00.000Z") });
    // Now itself is no problem: the period is empty, and says so as a period.
    expect(readGapPeriodStart(now.toISOString(), now)).toEqual({ since: now });
  });
});
