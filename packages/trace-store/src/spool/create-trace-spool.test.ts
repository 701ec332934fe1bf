import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LookupKnowledgeError } from "@lookup-knowledge/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRecord, window } from "../../test/make-record.js";
import { createDurableTraceStore } from "../durable/create-durable-trace-store.js";
import { openTraceDatabase } from "../database/open-trace-database.js";
import { TraceStoreError } from "../errors/trace-store-error.js";
import { createTraceSpool } from "./create-trace-spool.js";

function segments(directory: string, suffix: string): string[] {
  return readdirSync(join(directory, "spool")).filter((entry) => entry.endsWith(suffix) && entry !== "rejected.jsonl");
}

describe("createTraceSpool", () => {
  let root: string;
  let databaseDirectory: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "trace-spool-"));
    databaseDirectory = join(root, "database");
    await (await openTraceDatabase({ directory: databaseDirectory })).close();
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it("R29: a segment removed under its writer is replaced, and the line written into the removed file is written again", async () => {
    const directory = mkdtempSync(join(root, "traces-"));
    const { base } = window(2201);
    const spool = createTraceSpool({ directory });
    spool.append(makeRecord(0, base));
    const [first] = segments(directory, ".open");
    expect(first).toBeDefined();
    // What a flusher of another PID namespace did before it knew better: it took the live segment for a dead one.
    unlinkSync(join(directory, "spool", first ?? ""));
    const second = makeRecord(1, base);
    spool.append(second);
    const [replacement] = segments(directory, ".open");
    expect(replacement).toBeDefined();
    expect(replacement).not.toBe(first);
    const lines = readFileSync(join(directory, "spool", replacement ?? ""), "utf8")
      .trim()
      .split("\n");
    expect(lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual([second.id]);
    await spool.close();
    expect(segments(directory, ".jsonl")).toEqual([replacement?.replace(/\.open$/, ".jsonl")]);
  });

  it("R29: close() of a segment a flusher already removed is no error", async () => {
    const directory = mkdtempSync(join(root, "traces-"));
    const spool = createTraceSpool({ directory });
    spool.append(makeRecord(0, window(2202).base));
    const [segment] = segments(directory, ".open");
    unlinkSync(join(directory, "spool", segment ?? ""));
    await expect(spool.close()).resolves.toBeUndefined();
    expect(segments(directory, "")).toEqual([]);
  });

  it("R29: a seal that fails rejects with TraceStoreError naming the segment, and the store's close() flushes the segment anyway", async () => {
    const directory = mkdtempSync(join(root, "traces-"));
    const { base, since, until } = window(2203);
    const errors: LookupKnowledgeError[] = [];
    const store = createDurableTraceStore({
      directory,
      databaseDirectory,
      flushIntervalMs: 0,
      idleCloseMs: 0,
      onError: (error) => errors.push(error),
    });
    for (let index = 0; index < 3; index += 1) await store.record(makeRecord(index, base));
    const [segment] = segments(directory, ".open");
    // A directory where the sealed name should go: the rename fails (EISDIR), not with ENOENT.
    const sealedName = join(directory, "spool", (segment ?? "").replace(/\.open$/, ".jsonl"));
    mkdirSync(sealedName);
    writeFileSync(join(sealedName, "in-the-way"), "");
    await store.close();
    expect(errors.map((error) => error.code)).toEqual(["trace_spool_write_failed"]);
    expect(TraceStoreError.isInstance(errors[0])).toBe(true);
    expect(errors[0]?.message).toContain(`Could not seal the trace spool segment ${join(directory, "spool", segment ?? "")}`);
    // The segment left the live set, so the close's flush took it as finished: in the database, and gone from the spool.
    expect(segments(directory, ".open")).toEqual([]);
    const database = await openTraceDatabase({ directory: databaseDirectory });
    try {
      expect(await database.list({ since, until })).toHaveLength(3);
    } finally {
      await database.close();
    }
  });

  it("R29: a spool that never appends creates no folder, even with queryStorage hash", async () => {
    const directory = join(root, "never-written");
    const spool = createTraceSpool({ directory, queryStorage: "hash" });
    await spool.flush();
    await spool.close();
    expect(() => readdirSync(directory)).toThrow(/ENOENT/);
  });
});
