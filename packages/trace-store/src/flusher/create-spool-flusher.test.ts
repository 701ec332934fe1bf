import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LookupKnowledgeError } from "@lookup-knowledge/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSpoolFlusher } from "./create-spool-flusher.js";
import type { TraceFlushReport } from "../spool/trace-flush-report.js";
import { TraceStoreError } from "../errors/trace-store-error.js";

/** A trace folder that does not exist: no spool segments, so only `appended` makes work. */
const directory = join(tmpdir(), `spool-flusher-absent-${process.pid}`);
const report: TraceFlushReport = { flushed: 0, inserted: 0, skipped: [], quarantined: 0, segmentsRemoved: 0 };
const unreachable = () => new TraceStoreError({ code: "trace_database_unreachable", message: "the database is down", location: "db" });
const locked = () => new TraceStoreError({ code: "trace_store_locked", message: "another flusher", location: "lock" });

/** A flusher over an empty trace folder whose `flushSpool` does what `outcome` says. */
function flusherWith(outcome: () => "ok" | "down" | "locked", options: { afterRecords?: number } = {}) {
  const reports: LookupKnowledgeError[] = [];
  let calls = 0;
  const flusher = createSpoolFlusher({
    directory,
    location: "db",
    intervalMs: 1000,
    afterRecords: options.afterRecords ?? 0,
    afterBytes: 0,
    appendedBytes: () => 0,
    flushSpool: async () => {
      calls += 1;
      const next = outcome();
      if (next === "down") throw unreachable();
      if (next === "locked") throw locked();
      return report;
    },
    report: (error) => reports.push(error),
  });
  return { flusher, reports, calls: () => calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("createSpoolFlusher", () => {
  it("R29: a database outage is reported once, and background flushes back off, doubling, until one goes through", async () => {
    vi.useFakeTimers();
    let state: "ok" | "down" = "down";
    const { flusher, reports, calls } = flusherWith(() => state);
    flusher.appended();
    await vi.advanceTimersByTimeAsync(1000); // fails; the next attempt not before 1 s later, then 2 s, 4 s
    expect(calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls()).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls()).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls()).toBe(3);
    expect(reports.map((error) => error.code)).toEqual(["trace_database_unreachable"]);
    state = "ok";
    await vi.advanceTimersByTimeAsync(8000);
    expect(calls()).toBe(4);
    // Recovered: the next outage is reported again, and the backoff starts over.
    state = "down";
    flusher.appended();
    await vi.advanceTimersByTimeAsync(1000);
    expect(reports.map((error) => error.code)).toEqual(["trace_database_unreachable", "trace_database_unreachable"]);
    await flusher.stop();
  });

  it("R29: a spool locked by another flusher is no failure: nothing is reported and nothing backs off", async () => {
    vi.useFakeTimers();
    const { flusher, reports, calls } = flusherWith(() => "locked");
    flusher.appended();
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls()).toBe(3);
    expect(reports).toEqual([]);
    await flusher.stop();
  });

  it("R29: flushes run one after another, and a flush by hand rejects with the database's error", async () => {
    let calls = 0;
    let running = 0;
    let mostRunning = 0;
    const flusher = createSpoolFlusher({
      directory,
      location: "db",
      intervalMs: 0,
      afterRecords: 0,
      afterBytes: 0,
      appendedBytes: () => 0,
      flushSpool: async () => {
        calls += 1;
        running += 1;
        mostRunning = Math.max(mostRunning, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        if (calls === 3) throw unreachable();
        return report;
      },
      report: () => undefined,
    });
    await Promise.all([flusher.flush(0), flusher.flush(0)]);
    await expect(flusher.flush(0)).rejects.toMatchObject({ code: "trace_database_unreachable" });
    expect(calls).toBe(3);
    expect(mostRunning).toBe(1);
    await flusher.stop();
  });

  it("R29: passing afterRecords starts a flush without waiting for the timer; after stop() nothing starts", async () => {
    const { flusher, calls } = flusherWith(() => "ok", { afterRecords: 2 });
    flusher.appended();
    expect(calls()).toBe(0);
    flusher.appended();
    await Promise.resolve();
    await Promise.resolve();
    expect(calls()).toBe(1);
    await flusher.stop();
    flusher.appended();
    flusher.appended();
    await Promise.resolve();
    expect(calls()).toBe(1);
  });
});
