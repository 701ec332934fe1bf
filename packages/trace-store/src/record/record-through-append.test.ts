import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeRecord, window } from "../../test/make-record.js";
import { TraceStoreError } from "../errors/trace-store-error.js";
import { createTraceSpool } from "../spool/create-trace-spool.js";
import { recordThroughAppend } from "./record-through-append.js";

describe("recordThroughAppend", () => {
  it("R29: a failing append comes back as a rejected promise, never thrown where record is called", async () => {
    const { base } = window(2301);
    const appended: unknown[] = [];
    const record = recordThroughAppend((invocation) => {
      if (appended.length > 0) throw new Error("disk full");
      appended.push(invocation);
    });
    await expect(record(makeRecord(0, base))).resolves.toBeUndefined();
    let answer: Promise<void> | undefined;
    expect(() => {
      answer = record(makeRecord(1, base));
    }).not.toThrow();
    await expect(answer).rejects.toThrow("disk full");
    expect(appended).toHaveLength(1);
  });

  it("R29: a closed spool's record rejects with its TraceStoreError", async () => {
    const directory = mkdtempSync(join(tmpdir(), "record-through-append-"));
    try {
      const spool = createTraceSpool({ directory });
      await spool.close();
      const answer = spool.record(makeRecord(0, window(2302).base));
      await expect(answer).rejects.toBeInstanceOf(TraceStoreError);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
