import { ConfigurationError, LookupKnowledgeError, TimeoutError } from "@lookup-knowledge/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { noEvidenceResult } from "../../test/lookup-result-fixtures.js";
import { buildToolInvocationRecord } from "../record/build-tool-invocation-record.js";
import { createInMemoryTraceStore } from "../in-memory/create-in-memory-trace-store.js";
import { createTraceRecorder } from "./create-trace-recorder.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import { TraceRecordError } from "../record/trace-record-error.js";
import type { TraceStore } from "../trace-store.js";

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

/** An in-memory store that fails (or hangs) while `state` says so. */
function switchableStore(initial: "down" | "hang" | "up", mode: "throw" | "reject" = "reject") {
  const inner = createInMemoryTraceStore();
  let state = initial;
  let calls = 0;
  let concurrent = 0;
  let mostConcurrent = 0;
  const store: TraceStore = {
    record(invocation) {
      calls += 1;
      if (state === "hang") return new Promise<void>(() => {});
      if (state === "down") {
        const error = new Error("database unavailable");
        if (mode === "throw") throw error;
        return Promise.reject(error);
      }
      concurrent += 1;
      mostConcurrent = Math.max(mostConcurrent, concurrent);
      return inner.record(invocation).finally(() => (concurrent -= 1));
    },
  };
  return {
    store,
    inner,
    calls: () => calls,
    mostConcurrent: () => mostConcurrent,
    set: (next: "down" | "hang" | "up") => (state = next),
  };
}

function collectErrors() {
  const errors: TraceRecordError[] = [];
  return { errors, onError: (error: TraceRecordError) => void errors.push(error) };
}

/** Lets pending promise callbacks and real zero-delay timers run. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Moves the faked `Date` forward (only `Date` is faked, so real timers still run). */
function advance(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}

async function flushUntilDone(recorder: { flush(): Promise<{ recorded: number; pending: number }> }, rounds = 10) {
  let result = await recorder.flush();
  for (let round = 0; round < rounds && result.pending > 0; round += 1) result = await recorder.flush();
  return result;
}

afterEach(() => {
  vi.useRealTimers();
});

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
    const { store, inner, calls } = flakyStore(3, "throw");
    const { errors, onError } = collectErrors();
    const recorder = createTraceRecorder(store, { onError });
    const ids = ["r1", "r2", "r3", "r4", "r5"];
    for (const id of ids) expect(() => recorder.record(record(id))).not.toThrow();
    // r1 failed and started the outage; r2..r5 joined the queue without a write.
    expect(calls()).toBe(1);
    expect(recorder.pending).toBe(5);
    await expect(flushUntilDone(recorder)).resolves.toEqual({ recorded: 5, pending: 0 });
    expect(inner.list().map((one) => one.id)).toEqual(ids);
    // Two failed retries of r1 (one per flush), then five successful writes.
    expect(calls()).toBe(3 + 5);
    expect(errors.map((error) => [error.code, error.recordId])).toEqual([["trace_record_failed", "r1"]]);
  });

  it("R29: a store that rejects never makes record() throw; flush retries and reports the outage once", async () => {
    const { store, inner } = flakyStore(Number.POSITIVE_INFINITY, "reject");
    const { errors, onError } = collectErrors();
    const recorder = createTraceRecorder(store, { onError });
    expect(() => recorder.record(record("r1"))).not.toThrow();
    expect(() => recorder.record(record("r2"))).not.toThrow();
    await expect(recorder.flush()).resolves.toEqual({ recorded: 0, pending: 2 });
    await expect(recorder.flush()).resolves.toEqual({ recorded: 0, pending: 2 });
    expect(errors).toHaveLength(1);
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
    await expect(flushUntilDone(recorder)).resolves.toEqual({ recorded: 5, pending: 0 });
    const stored = inner.list().map((one) => one.id);
    expect([...stored].sort()).toEqual(ids);
    // All five were written before the first rejection was seen: r1..r3 failed while r4 and
    // r5 went through; the retried ones keep their own order.
    expect(stored.filter((id) => ["r1", "r2", "r3"].includes(id))).toEqual(["r1", "r2", "r3"]);
    expect(errors.map((error) => error.recordId)).toEqual(["r1"]);
  });

  it("R29: records recorded during an outage wait behind the failed one and land in call order", async () => {
    const { store, inner, calls } = flakyStore(3, "reject");
    const recorder = createTraceRecorder(store, { onError: () => {} });
    const ids = ["r1", "r2", "r3", "r4"];
    for (const id of ids) {
      recorder.record(record(id));
      await tick();
    }
    // Only r1 was written; the backoff delay has not passed, so r2..r4 just wait.
    expect(calls()).toBe(1);
    await expect(flushUntilDone(recorder)).resolves.toEqual({ recorded: 4, pending: 0 });
    expect(inner.list().map((one) => one.id)).toEqual(ids);
    // r1 fails, then fails on two flushes, then r1..r4 succeed: no write repeated after success.
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

  it("R29: a store down for 200 records is not hammered, the outage is reported once, and after recovery all 200 land once, in order", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { store, inner, calls, set } = switchableStore("down");
    const { errors, onError } = collectErrors();
    const recorder = createTraceRecorder(store, { onError });
    const ids = Array.from({ length: 200 }, (_, index) => `r${index + 1}`);
    for (const id of ids) {
      expect(() => recorder.record(record(id))).not.toThrow();
      advance(50);
      await tick();
    }
    const outageCalls = calls();
    // 10 s of outage: the first write, then one pass (stopping at its first failure) per
    // backoff window of 0.5, 1, 2, 4 and 8 s. The old recorder made 20,100 writes here.
    expect(outageCalls).toBeGreaterThan(1);
    expect(outageCalls).toBeLessThanOrEqual(7);
    expect(outageCalls).toBeLessThan(200 * 200);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: "trace_record_failed", recordId: "r1" });
    expect(recorder.pending).toBe(200);

    set("up");
    await expect(recorder.flush()).resolves.toEqual({ recorded: 200, pending: 0 });
    expect(inner.list().map((one) => one.id)).toEqual(ids);
    expect(calls()).toBe(outageCalls + 200);
    expect(errors).toHaveLength(1);
  });

  it.each(["throw", "reject"] as const)(
    "R29: a burst of 200 records against a store that is down (%s) writes each at most once and reports once",
    async (mode) => {
      const { store, inner, calls, set } = switchableStore("down", mode);
      const { errors, onError } = collectErrors();
      const recorder = createTraceRecorder(store, { onError });
      const ids = Array.from({ length: 200 }, (_, index) => `r${index + 1}`);
      for (const id of ids) recorder.record(record(id));
      await expect(recorder.flush()).resolves.toEqual({ recorded: 0, pending: 200 });
      // A synchronous throw is seen at once (1 write); rejections only after the burst (200
      // writes). Then flush's pass stops at its first failure (1 write).
      expect(calls()).toBeLessThanOrEqual(200 + 1);
      expect(errors).toHaveLength(1);
      set("up");
      await expect(recorder.flush()).resolves.toEqual({ recorded: 200, pending: 0 });
      expect(inner.list().map((one) => one.id)).toEqual(ids);
    },
  );

  it("R29: retries wait for a backoff delay that doubles per failed pass and resets after recovery", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { store, inner, calls, set } = switchableStore("down");
    const { errors, onError } = collectErrors();
    const recorder = createTraceRecorder(store, { retryDelayMs: 100, onError });
    const step = async (id: string, ms: number) => {
      advance(ms);
      recorder.record(record(id));
      await tick();
      return calls();
    };
    recorder.record(record("r1")); // fails: outage, next pass not before +100 ms
    await tick();
    expect(calls()).toBe(1);
    expect(await step("r2", 50)).toBe(1); // +50: too early
    expect(await step("r3", 50)).toBe(2); // +100: a pass, fails on r1; next not before +200
    expect(await step("r4", 150)).toBe(2); // +150: too early
    expect(await step("r5", 50)).toBe(3); // +200: a pass, fails; next not before +400
    expect(await step("r6", 399)).toBe(3);
    set("up");
    expect(await step("r7", 1)).toBe(3 + 7); // +400: a pass writes r1..r7, oldest first
    expect(inner.list().map((one) => one.id)).toEqual(["r1", "r2", "r3", "r4", "r5", "r6", "r7"]);
    expect(recorder.pending).toBe(0);
    expect(errors).toHaveLength(1);

    // The store works again: records are written directly.
    expect(await step("r8", 1)).toBe(11);
    // A new outage is reported once more, and its first delay is back to 100 ms.
    set("down");
    expect(await step("r9", 1)).toBe(12);
    expect(errors.map((error) => error.recordId)).toEqual(["r1", "r9"]);
    expect(await step("r10", 99)).toBe(12);
    expect(await step("r11", 1)).toBe(13);
  });

  it("R29: never runs more than one retry pass at a time", async () => {
    let fail = true;
    let concurrent = 0;
    let mostConcurrent = 0;
    const inner = createInMemoryTraceStore();
    const store: TraceStore = {
      async record(invocation) {
        concurrent += 1;
        mostConcurrent = Math.max(mostConcurrent, concurrent);
        await new Promise((resolve) => setTimeout(resolve, 2));
        concurrent -= 1;
        if (fail) throw new Error("database unavailable");
        await inner.record(invocation);
      },
    };
    const recorder = createTraceRecorder(store, { retryDelayMs: 0, onError: () => {} });
    recorder.record(record("r0"));
    await recorder.flush();
    fail = false;
    // Delay 0: every record() may start a pass, but only when none is running.
    for (let index = 1; index <= 50; index += 1) recorder.record(record(`r${index}`));
    expect(mostConcurrent).toBe(1);
    await expect(recorder.flush()).resolves.toEqual({ recorded: 51, pending: 0 });
    expect(mostConcurrent).toBe(1);
    expect(inner.list().map((one) => one.id)).toEqual(Array.from({ length: 51 }, (_, index) => `r${index}`));
  });

  it("R29: reports every record dropped when more than maxPending wait, oldest first", async () => {
    const { store } = flakyStore(Number.POSITIVE_INFINITY, "throw");
    const { errors, onError } = collectErrors();
    const recorder = createTraceRecorder(store, { maxPending: 2, onError });
    for (const id of ["r1", "r2", "r3", "r4"]) recorder.record(record(id));
    expect(errors.map((error) => error.code)).toEqual(["trace_record_failed", "trace_record_dropped", "trace_record_dropped"]);
    const dropped = errors.filter((error) => error.code === "trace_record_dropped");
    expect(dropped.map((error) => error.recordId)).toEqual(["r1", "r2"]);
    expect(dropped[0]?.retryable).toBe(false);
    expect(dropped[0]?.invocation.id).toBe("r1");
    expect(dropped[0]?.message).toMatch(/Dropped tool invocation r1: more than 2 records/);
    expect(dropped[0]?.message).toContain("database unavailable");
    // r2 was never written itself; its drop names the outage's last error.
    expect(dropped[1]?.message).toContain("database unavailable");
    await expect(recorder.flush()).resolves.toEqual({ recorded: 0, pending: 2 });
    expect(errors).toHaveLength(3);
  });

  it("R29: warns on the console by default, once per outage", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const { store, set } = switchableStore("down");
      const recorder = createTraceRecorder(store);
      for (let index = 1; index <= 20; index += 1) recorder.record(record(`r${index}`));
      await recorder.flush();
      await recorder.flush();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain("r1");
      expect(String(warn.mock.calls[0]?.[0])).toContain("database unavailable");
      set("up");
      await expect(recorder.flush()).resolves.toEqual({ recorded: 20, pending: 0 });
      expect(warn).toHaveBeenCalledTimes(1);
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

  it("R29: a store that hangs does not block record()", async () => {
    const recorder = createTraceRecorder(
      { record: () => new Promise<void>(() => {}) },
      {
        writeTimeoutMs: 20,
        onError: () => {},
      },
    );
    recorder.record(record("r1"));
    expect(recorder.pending).toBe(1);
    await expect(recorder.close()).resolves.toBeUndefined();
  });

  it("R29: a write that never settles times out, so flush() resolves with the record pending; it is written once the store recovers", async () => {
    const { store, inner, set } = switchableStore("hang");
    const { errors, onError } = collectErrors();
    const recorder = createTraceRecorder(store, { writeTimeoutMs: 20, onError });
    recorder.record(record("r1"));
    const started = Date.now();
    await expect(recorder.flush()).resolves.toEqual({ recorded: 0, pending: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(recorder.pending).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: "trace_record_failed", recordId: "r1" });
    expect(TimeoutError.isInstance(errors[0]?.cause)).toBe(true);
    expect(errors[0]?.message).toMatch(/within 20 ms/);

    set("up");
    await expect(recorder.flush()).resolves.toEqual({ recorded: 1, pending: 0 });
    expect(inner.list().map((one) => one.id)).toEqual(["r1"]);
    expect(errors).toHaveLength(1);
  });

  it("R29: a timed-out write goes to the waiting queue in call order", async () => {
    const inner = createInMemoryTraceStore();
    let hangOnce = true;
    const store: TraceStore = {
      record(invocation) {
        if (invocation.id === "r1" && hangOnce) {
          hangOnce = false;
          return new Promise<void>(() => {});
        }
        return inner.record(invocation);
      },
    };
    const recorder = createTraceRecorder(store, { writeTimeoutMs: 20, onError: () => {} });
    recorder.record(record("r1"));
    recorder.record(record("r2"));
    await new Promise((resolve) => setTimeout(resolve, 40));
    recorder.record(record("r3")); // r1 waits: r3 queues behind it
    expect(inner.list().map((one) => one.id)).toEqual(["r2"]);
    await expect(recorder.flush()).resolves.toEqual({ recorded: 3, pending: 0 });
    expect(inner.list().map((one) => one.id)).toEqual(["r2", "r1", "r3"]);
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

  it("refuses maxPending, retryDelayMs and writeTimeoutMs that are not whole numbers in range", () => {
    const store = createInMemoryTraceStore();
    expect(() => createTraceRecorder(store, { maxPending: -1 })).toThrow(ConfigurationError);
    expect(() => createTraceRecorder(store, { maxPending: 1.5 })).toThrow(/maxPending/);
    expect(() => createTraceRecorder(store, { retryDelayMs: -1 })).toThrow(/retryDelayMs/);
    expect(() => createTraceRecorder(store, { retryDelayMs: Number.NaN })).toThrow(ConfigurationError);
    expect(() => createTraceRecorder(store, { writeTimeoutMs: 0 })).toThrow(/writeTimeoutMs/);
    expect(() => createTraceRecorder(store, { writeTimeoutMs: 2.5 })).toThrow(ConfigurationError);
    expect(() => createTraceRecorder(store, { writeTimeoutMs: Number.POSITIVE_INFINITY })).toThrow(/writeTimeoutMs/);
    expect(() => createTraceRecorder(store, { maxPending: 0, retryDelayMs: 0, writeTimeoutMs: 1 })).not.toThrow();
  });
});
