import { describe, expect, it } from "vitest";
import { foundResult } from "../../test/lookup-result-fixtures.js";
import { buildToolInvocationRecord } from "../record/build-tool-invocation-record.js";
import { createInMemoryTraceStore } from "./create-in-memory-trace-store.js";

const record = (id: string) => buildToolInvocationRecord({ result: foundResult(), id, startedAt: new Date(0), durationMs: 1 });

describe("createInMemoryTraceStore", () => {
  it("keeps records in order and finds them by id", async () => {
    const store = createInMemoryTraceStore();
    await store.record(record("a"));
    await store.record(record("b"));
    expect(store.size).toBe(2);
    expect(store.list().map((one) => one.id)).toEqual(["a", "b"]);
    expect(store.get("b")).toEqual(record("b"));
    expect(store.get("missing")).toBeUndefined();
  });

  it("issue 13: keeps the reference threshold of a record's retrieval details", async () => {
    const store = createInMemoryTraceStore();
    await store.record(record("a"));
    expect(store.get("a")?.retrievalDetails.referenceThreshold).toBe(0.6);
  });

  it("holds a record as soon as record() is called", () => {
    const store = createInMemoryTraceStore();
    void store.record(record("now"));
    expect(store.get("now")?.id).toBe("now");
  });

  it("replaces a record written twice under one id", async () => {
    const store = createInMemoryTraceStore();
    await store.record(record("a"));
    await store.record({ ...record("a"), durationMs: 99 });
    expect(store.size).toBe(1);
    expect(store.get("a")?.durationMs).toBe(99);
  });

  it("stores and hands out copies", async () => {
    const store = createInMemoryTraceStore();
    const original = record("a");
    await store.record(original);
    original.query = "changed";
    const listed = store.list()[0];
    if (listed) listed.query = "changed too";
    expect(store.get("a")?.query).toBe("  How do Visa refunds work? ");
  });

  it("clears", async () => {
    const store = createInMemoryTraceStore();
    await store.record(record("a"));
    store.clear();
    expect(store.size).toBe(0);
    expect(store.list()).toEqual([]);
  });
});
