import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { noEvidenceResult } from "../../test/lookup-result-fixtures.js";
import { buildToolInvocationRecord } from "../record/build-tool-invocation-record.js";
import { createTraceRecorder } from "./create-trace-recorder.js";
import { createTraceSpool } from "../spool/create-trace-spool.js";
import type { SpoolingTraceStore } from "../durable/spooling-trace-store.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import type { TraceRecordError } from "../record/trace-record-error.js";

const record = (id: string): ToolInvocationRecord =>
  buildToolInvocationRecord({ result: noEvidenceResult(), id, startedAt: new Date(0), durationMs: 1 });

/** A durable store whose `append` fails while `down` is set; `record` must never be called. */
function spoolingStore() {
  const appended: string[] = [];
  let down = false;
  let recordCalls = 0;
  const store: SpoolingTraceStore = {
    durable: true,
    append(invocation) {
      if (down) throw new Error("disk full");
      appended.push(invocation.id);
    },
    async record() {
      recordCalls += 1;
    },
  };
  return { store, appended, recordCalls: () => recordCalls, set: (state: "down" | "up") => (down = state === "down") };
}

const root = mkdtempSync(join(tmpdir(), "recorder-spooling-"));

afterEach(() => {
  vi.useRealTimers();
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("createTraceRecorder with a durable (spooling) store", () => {
  it("R29: appends each record straight to the store's spool: no write timer, nothing in flight, no record() call", async () => {
    vi.useFakeTimers();
    const fake = spoolingStore();
    const recorder = createTraceRecorder(fake.store);
    recorder.record(record("a"));
    recorder.record(record("b"));
    expect(fake.appended).toEqual(["a", "b"]);
    expect(vi.getTimerCount()).toBe(0);
    expect(recorder.pending).toBe(0);
    expect(fake.recordCalls()).toBe(0);
    vi.useRealTimers();
    await expect(recorder.flush()).resolves.toEqual({ recorded: 2, pending: 0 });
  });

  it("R29: a record the spool refuses waits in the recorder, is reported once, and lands once the spool can be written, in order", async () => {
    const fake = spoolingStore();
    const errors: TraceRecordError[] = [];
    const recorder = createTraceRecorder(fake.store, { retryDelayMs: 10_000, onError: (error) => errors.push(error) });
    recorder.record(record("a"));
    fake.set("down");
    recorder.record(record("b"));
    recorder.record(record("c"));
    expect(errors.map((error) => [error.code, error.recordId])).toEqual([["trace_record_failed", "b"]]);
    expect(recorder.pending).toBe(2);
    fake.set("up");
    await expect(recorder.flush()).resolves.toEqual({ recorded: 3, pending: 0 });
    expect(fake.appended).toEqual(["a", "b", "c"]);
    expect(fake.recordCalls()).toBe(0);
  });

  it("R29: with the real spool, the line is in the segment file when record() returns", async () => {
    const directory = join(root, "traces");
    const spool = createTraceSpool({ directory });
    const recorder = createTraceRecorder(spool);
    recorder.record(record("spooled-1"));
    const [segment] = readdirSync(join(directory, "spool")).filter((name) => name.endsWith(".open"));
    const lines = readFileSync(join(directory, "spool", segment ?? ""), "utf8")
      .trim()
      .split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual(["spooled-1"]);
    await recorder.close();
    await spool.close();
  });
});
