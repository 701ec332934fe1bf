import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LookupKnowledgeError } from "@lookup-knowledge/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableTraceStore, type DurableTraceStoreOptions } from "../src/create-durable-trace-store.js";
import type { DurableTraceStore } from "../src/durable-trace-store.js";
import type { DatabaseTarget } from "./database-targets.js";
import { makeRecord, window } from "./make-record.js";

/**
 * Records whose text Postgres `text` and `jsonb` cannot hold, records the database refuses,
 * and records a later version wrote, against each real database: they are stored sanitised,
 * quarantined or read as this version can, and never block the records after them (R29).
 */
export function defineHostileRecordSuite(name: string, makeTarget: () => Promise<DatabaseTarget>): void {
  describe(`hostile trace records on ${name}`, () => {
    let target: DatabaseTarget;
    let root: string;
    const stores: DurableTraceStore[] = [];
    beforeAll(async () => {
      target = await makeTarget();
      root = mkdtempSync(join(tmpdir(), "trace-hostile-"));
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
      await target?.cleanup();
      rmSync(root, { recursive: true, force: true });
    }, 60_000);

    function open(errors: LookupKnowledgeError[], options: Partial<DurableTraceStoreOptions> = {}): DurableTraceStore {
      const store = createDurableTraceStore({
        directory: mkdtempSync(join(root, "traces-")),
        ...target.storeOptions,
        flushIntervalMs: 0,
        idleCloseMs: 100,
        onError: (error) => errors.push(error),
        ...options,
      });
      stores.push(store);
      return store;
    }

    it("R29: a NUL byte or a lone surrogate in a query, title or path is stored, marked as sanitised, and the records after it flush too", async () => {
      const errors: LookupKnowledgeError[] = [];
      const store = open(errors);
      const { base, since, until } = window(2401);
      const clean = makeRecord(0, base);
      const evidence = clean.retrievalDetails.evidence.map((summary, index) =>
        index === 0 ? { ...summary, title: "Re\u0000funds", source: "docs/\u0000billing.md", preview: "half \ud800 pair" } : summary,
      );
      const hostile = makeRecord(0, base, {
        query: "refund\u0000 policy \udc00",
        retrievalDetails: {
          ...clean.retrievalDetails,
          evidence,
          attempts: clean.retrievalDetails.attempts.map((attempt) => ({
            ...attempt,
            filter: { "cate\u0000gory": { $eq: "bill\u0000ing" } },
          })),
        },
      });
      await store.record(hostile);
      for (let index = 1; index < 5; index += 1) await store.record(makeRecord(index, base));
      const report = await store.flush();
      expect(report).toMatchObject({ flushed: 5, inserted: 5, quarantined: 0 });
      const stored = await store.get(hostile.id);
      expect(stored?.query).toBe("refund\ufffd policy \ufffd");
      expect(stored?.retrievalDetails.evidence[0]).toMatchObject({
        title: "Re\ufffdfunds",
        source: "docs/\ufffdbilling.md",
        preview: "half \ufffd pair",
      });
      expect(stored?.retrievalDetails.attempts[0]?.filter).toEqual({ "cate\ufffdgory": { $eq: "bill\ufffding" } });
      expect(stored?.retrievalDetails.sanitizedFields).toEqual(
        expect.arrayContaining([
          "query",
          "retrievalDetails.evidence.0.title",
          "retrievalDetails.evidence.0.source",
          "retrievalDetails.evidence.0.preview",
        ]),
      );
      expect((await store.get(makeRecord(1, base).id))?.retrievalDetails.sanitizedFields).toBeUndefined();
      expect(await store.list({ since, until })).toHaveLength(5);
      // Later records still flush.
      await store.record(makeRecord(5, base));
      expect(await store.flush()).toMatchObject({ flushed: 1, inserted: 1 });
      expect(errors).toEqual([]);
    });

    it("R29: a record the database refuses is quarantined in rejected.jsonl, counted and reported once; the records around it are stored", async () => {
      const errors: LookupKnowledgeError[] = [];
      const store = open(errors, { batchSize: 3 });
      const { base, since, until } = window(2402);
      // An integer column holds at most 2^31 - 1: the database refuses this row, not the batch.
      const refused = makeRecord(2, base, { candidateCount: 3_000_000_000 });
      for (let index = 0; index < 7; index += 1) await store.record(index === 2 ? refused : makeRecord(index, base));
      const report = await store.flush();
      expect(report).toMatchObject({ flushed: 6, inserted: 6, quarantined: 1 });
      expect((await store.list({ since, until })).map((record) => record.id).sort()).toEqual(
        [0, 1, 3, 4, 5, 6].map((index) => makeRecord(index, base).id),
      );
      const rejected = readFileSync(join(store.directory, "spool", "rejected.jsonl"), "utf8")
        .trim()
        .split("\n");
      expect(rejected).toHaveLength(1);
      const kept = JSON.parse(rejected[0] ?? "{}") as { record?: { id?: string }; reason?: string };
      expect(kept.record?.id).toBe(refused.id);
      expect(kept.reason).toMatch(/out of range/);
      expect(errors).toHaveLength(1);
      const [error] = errors;
      expect(error?.code).toBe("trace_record_rejected");
      expect(error?.message).toMatch(/1 trace record .*refused.*out of range/);
      expect(error?.message).toContain("rejected.jsonl");
      // The cause in one line, without the statement or its parameters.
      expect(error?.message).not.toMatch(/\n|params:|insert into/i);
      expect(error?.message.length).toBeLessThan(600);
      // Nothing is retried: the next flush has nothing to do, and is not reported.
      expect(await store.flush()).toMatchObject({ flushed: 0, quarantined: 0 });
      await store.record(makeRecord(7, base));
      expect(await store.flush()).toMatchObject({ flushed: 1, inserted: 1 });
      expect(errors).toHaveLength(1);
    });

    it("R29: a stored attempt whose outcome this version does not know (a later writer's) is stored, then read as error saying what was stored", async () => {
      const errors: LookupKnowledgeError[] = [];
      const store = open(errors);
      const { base, since, until } = window(2404);
      const known = makeRecord(0, base);
      const [first, ...others] = known.retrievalDetails.attempts;
      const later = { ...known, id: `${known.id}-later` };
      await store.record(known); // makes the spool folder
      // What a later version appends to the shared spool: an outcome core does not define here.
      const line = JSON.stringify({
        ...later,
        retrievalDetails: { ...later.retrievalDetails, attempts: [{ ...first, outcome: "timed_out" }, ...others] },
      });
      writeFileSync(join(store.directory, "spool", "000000000000001-1-ab-000001.jsonl"), `${line}\n`);
      expect(await store.flush()).toMatchObject({ inserted: 2, skipped: [], quarantined: 0 });
      const read = await store.get(later.id);
      expect(read?.retrievalDetails.attempts[0]).toEqual({
        ...first,
        outcome: "error",
        error: 'the stored outcome "timed_out" is not one of usable, no_candidates, no_evidence, low_quality, error',
      });
      expect(read?.retrievalDetails.attempts.slice(1)).toEqual(others);
      const listed = await store.list({ since, until });
      expect(listed.map((record) => record.retrievalDetails.attempts[0]?.outcome).sort()).toEqual(["error", first?.outcome]);
      expect(errors).toEqual([]);
    });

    it("R29: a 1 MB query with a NUL byte neither blocks the flush nor puts its text into the error", async () => {
      const errors: LookupKnowledgeError[] = [];
      const store = open(errors);
      const { base, since, until } = window(2403);
      const refused = makeRecord(0, base, { query: `${"x".repeat(1_000_000)}\u0000`, evidenceCount: -1 >>> 0 });
      await store.record(refused);
      await store.record(makeRecord(1, base));
      const report = await store.flush();
      expect(report).toMatchObject({ flushed: 1, quarantined: 1 });
      expect(await store.list({ since, until })).toHaveLength(1);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.message.length).toBeLessThan(600);
    });
  });
}
