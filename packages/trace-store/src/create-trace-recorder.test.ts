import { ConfigurationError, LookupKnowledgeError } from "@lookup-knowledge/core";
import { describe, expect, it, vi } from "vitest";
import { noEvidenceResult } from "../test/lookup-result-fixtures.js";
import { buildToolInvocationRecord } from "./build-tool-invocation-record.js";
import { createInMemoryTraceStore } from "./create-in-memory-trace-store.js";
import { createTraceRecorder } from "./create-trace-recorder.js";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";
import { TraceRecordError } from "./trace-record-error.js";
import type { TraceStore } from "./trace-store.js";

const record = (id: string): ToolInvocationRecord =>
  buildToolInvocationRecord({ result: noEvidenceResult(), id, startedAt: new Date(0), durationMs: 1 });

/** An in-memory store whose first `failures` writes fail, synchronously or by rejecting. */
function flakyStore(failures: number, mode: "throw" | "reject") {
  const inner = createInMemoryTraceStore();
  let calls = 0;
  const store: TraceStore = {
    record(invocation) {
      calls += 1;
      if (calls <= failures) {
        const error = new Error(`database unavailable (call ${calls})`);
        if (mode === "throw") throw error;
        return Promise.reject(error);
      }
      return inner.record(invocation);
    },
  };
  return { store, inner, calls: () => calls };
}

function collectErrors() {
  const errors: TraceRecordError[] = [];
  return { errors, onError: (error: TraceRecordError) => void errors.push(error) };
}

describe("createTraceRecorder", () => {
  it("hands a record to the store synchronously", async () => {
    const store = createInMemoryTraceStore();
    const recorder = createTraceRecorder(store);
    recorder.record(record("a"));
    expect(store.get("a")?.id).toBe("a");
    await expect(recorder.flush()).resolves.toEqual({ recorded: 1, pending: 0 });
    expect(recorder.pending).toBe(0);
  });

  it("R29: a store that throws synchronously never makes record() throw; every record lands once, in order", async () => {
    const { store, inner } = flakyStore(3, "throw");
    const { errors, onError } = collectErrors();
    const recorder = createTraceRecorder(store, { onError });
    const ids = ["r1", "r2", "r3", "r4", "r5"];
    for (const id of ids) expect(() => recorder.record(record(id))).not.toThrow();
    await expect(recorder.flush()).resolves.toEqual({ recorded: 5, pending: 0 });
    expect(inner.list().map((one) => one.id)).toEqual(ids);
    expect(errors).toHaveLength(3);
    expect(errors.map((error) => error.code)).toEqual(["trace_record_failed", "trace_record_failed", "trace_record_failed"]);
    expect(errors.map((error) => error.recordId)).toEqual(["r1", "r1", "r2"]);
  });

  it("R29: a store that rejects never makes record() throw; flush retries and recovers", async () => {
    const { store, inner } = flakyStore(Number.POSITIVE_INFINITY, "reject");
    const { errors, onError } = collectErrors();
    const recorder = createTraceRecorder(store, { onError });
    expect(() => recorder.record(record("r1"))).not.toThrow();
    expect(() => recorder.record(record("r2"))).not.toThrow();
    await expect(recorder.flush()).resolves.toEqual({ recorded: 0, pending: 2 });
    expect(errors.length).toBeGreaterThanOrEqual(2);
    const error = errors[0];
    expect(TraceRecordError.isInstance(error)).toBe(true);
    expect(LookupKnowledgeError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "trace_record_failed", recordId: "r1", retryable: true });
    expect(error?.cause).toBeInstanceOf(Error);
    expect(error?.message).toContain("r1");
    expect(error?.message).toContain("database unavailable");
    expect(inner.size).toBe(0);
  });

  it("R29: a store that fails 3 times then recovers ends with every record exactly once, retried ones in order", async () => {
    const { store, inner } = flakyStore(3, "reject");
    const { errors, onError } = collectErrors();
    const recorder = createTraceRecorder(store, { onError });
    const ids = ["r1", "r2", "r3", "r4", "r5"];
    for (const id of ids) recorder.record(record(id));
    let result = await recorder.flush();
    for (let round = 0; round < 5 && result.pending > 0; round += 1) result = await recorder.flush();
    expect(result).toEqual({ recorded: 5, pending: 0 });
    const stored = inner.list().map((one) => one.id);
    expect([...stored].sort()).toEqual(ids);
    // r1..r3 failed while r4 and r5 went through; the retried ones keep their own order.
    expect(stored.filter((id) => ["r1", "r2", "r3"].includes(id))).toEqual(["r1", "r2", "r3"]);
    expect(errors.map((error) => error.recordId)).toEqual(["r1", "r2", "r3"]);
  });

  it("R29: records awaited one by one keep their order through failures", async () => {
    const { store, inner, calls } = flakyStore(3, "reject");
    const recorder = createTraceRecorder(store, { onError: () => {} });
    const ids = ["r1", "r2", "r3", "r4"];
    for (const id of ids) {
      recorder.record(record(id));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await recorder.flush();
    expect(inner.list().map((one) => one.id)).toEqual(ids);
    // r1 fails, r1 and r2 fail again, then r1, r2, r3 and r4 succeed: no write repeated after success.
    expect(calls()).toBe(7);
  });

  it("R29: never writes a record twice once a write succeeded", async () => {
    const writes: string[] = [];
    let fail = true;
    const store: TraceStore = {
      async record(invocation) {
        writes.push(invocation.id);
        if (fail && invocation.id === "r2") throw new Error("constraint violation");
      },
    };
    const recorder = createTraceRecorder(store, { onError: () => {} });
    recorder.record(record("r1"));
    recorder.record(record("r2"));
    recorder.record(record("r3"));
    await recorder.flush();
    fail = false;
    await recorder.flush();
    expect(writes.filter((id) => id === "r1")).toHaveLength(1);
    expect(writes.filter((id) => id === "r3")).toHaveLength(1);
    expect(writes.filter((id) => id === "r2")).toHaveLength(3);
    expect(recorder.pending).toBe(0);
  });

  it("R29: reports every record dropped when more than maxPending wait, oldest first", async () => {
    const { store } = flakyStore(Number.POSITIVE_INFINITY, "throw");
    const { errors, onError } = collectErrors();
    const recorder = createTraceRecorder(store, { maxPending: 2, onError });
    for (const id of ["r1", "r2", "r3", "r4"]) recorder.record(record(id));
    const dropped = errors.filter((error) => error.code === "trace_record_dropped");
    expect(dropped.map((error) => error.recordId)).toEqual(["r1", "r2"]);
    expect(dropped[0]?.retryable).toBe(false);
    expect(dropped[0]?.invocation.id).toBe("r1");
    expect(dropped[0]?.message).toMatch(/Dropped tool invocation r1: more than 2 records/);
    expect(dropped[0]?.message).toContain("database unavailable");
    await expect(recorder.flush()).resolves.toEqual({ recorded: 0, pending: 2 });
  });

  it("R29: warns on the console by default, once per failure", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const { store } = flakyStore(1, "reject");
      const recorder = createTraceRecorder(store);
      recorder.record(record("r1"));
      await recorder.flush();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain("r1");
    } finally {
      warn.mockRestore();
    }
  });

  it("R29: an onError that throws does not reach the caller", async () => {
    const { store, inner } = flakyStore(1, "throw");
    const recorder = createTraceRecorder(store, {
      onError: () => {
        throw new Error("handler broke");
      },
    });
    expect(() => recorder.record(record("r1"))).not.toThrow();
    await expect(recorder.flush()).resolves.toEqual({ recorded: 1, pending: 0 });
    expect(inner.get("r1")).toBeDefined();
  });

  it("R29: a store that hangs does not block record()", () => {
    const recorder = createTraceRecorder({ record: () => new Promise<void>(() => {}) }, { onError: () => {} });
    recorder.record(record("r1"));
    expect(recorder.pending).toBe(1);
  });

  it("counts records in flight as pending and close() waits for them", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inner = createInMemoryTraceStore();
    const recorder = createTraceRecorder({
      async record(invocation) {
        await gate;
        await inner.record(invocation);
      },
    });
    recorder.record(record("r1"));
    expect(recorder.pending).toBe(1);
    const closed = recorder.close();
    release();
    await closed;
    expect(recorder.pending).toBe(0);
    expect(inner.size).toBe(1);
  });

  it("refuses a maxPending that is not a whole number", () => {
    const store = createInMemoryTraceStore();
    expect(() => createTraceRecorder(store, { maxPending: -1 })).toThrow(ConfigurationError);
    expect(() => createTraceRecorder(store, { maxPending: 1.5 })).toThrow(/maxPending/);
  });
});
