import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { defaultParseWorkers, maxDefaultParseWorkers } from "./default-parse-workers.js";

describe("defaultParseWorkers", () => {
  it("issue 36 item 6: a 2-core machine parses on the calling thread, idle or busy (workers measured slower there)", () => {
    expect(defaultParseWorkers({ cores: 2, load: 0 })).toBe(1);
    expect(defaultParseWorkers({ cores: 2, load: 1.5 })).toBe(1);
    expect(defaultParseWorkers({ cores: 1, load: 0 })).toBe(1);
  });

  it("issue 36 item 6: workers only where at least 3 cores are idle, one per idle core but one, at most 4", () => {
    expect(defaultParseWorkers({ cores: 3, load: 0 })).toBe(2);
    expect(defaultParseWorkers({ cores: 4, load: 0.5 })).toBe(2);
    expect(defaultParseWorkers({ cores: 8, load: 0 })).toBe(maxDefaultParseWorkers);
    expect(defaultParseWorkers({ cores: 64, load: 2 })).toBe(maxDefaultParseWorkers);
  });

  it("issue 36 item 6: a busy machine with many cores stays on the calling thread", () => {
    expect(defaultParseWorkers({ cores: 8, load: 6.2 })).toBe(1);
    expect(defaultParseWorkers({ cores: 16, load: 40 })).toBe(1);
  });

  it("issue 36 item 6: with no load average (Windows reports 0) the cores decide", () => {
    expect(defaultParseWorkers({ cores: 4, load: 0 })).toBe(3);
  });

  it("reads this machine by default: a whole number from 1 to 4, 1 on a machine of 2 cores or fewer", () => {
    const workers = defaultParseWorkers();
    expect(Number.isInteger(workers)).toBe(true);
    expect(workers).toBeGreaterThanOrEqual(1);
    expect(workers).toBeLessThanOrEqual(maxDefaultParseWorkers);
    if (availableParallelism() <= 2) expect(workers).toBe(1);
  });
});
