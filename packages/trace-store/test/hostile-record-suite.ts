import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LookupKnowledgeError } from "@lookup-knowledge/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableTraceStore, type DurableTraceStoreOptions } from "../src/durable/create-durable-trace-store.js";
import type { DurableTraceStore } from "../src/durable/durable-trace-store.js";
import { traceMigrationsFolder } from "../src/database/trace-migrations-folder.js";
import type { DatabaseTarget } from "./database-targets.js";
import { insertRawRecord } from "./insert-raw-record.js";
import { makeRecord, window } from "./make-record.js";

/** How many migrations the package has: a database at all of them has the current schema. */
const migrationCount = (JSON.parse(readFileSync(join(traceMigrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: unknown[] })
  .entries.length;

/**
 * Records whose text Postgres `text` and `jsonb` cannot hold, records the database refuses,
 * and records a later version wrote, against each real database: they are stored sanitised,
 * quarantined or read as this version can, and never block the records after them (R29). A
 * row another writer put in the table is read whole, however odd its `retrievalDetails`.
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

    it("R29, issue 37 item 1: a NUL byte or a lone surrogate in a query, title or path (an attempt's topSource too) is stored, marked as sanitised, and the records after it flush too", async () => {
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
            // The page behind the top score comes from the port's hit as it is (issue 37 item 1).
            topSource: { source: "docs/\udc00refunds.md", title: "Re\u0000funds" },
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
      expect(stored?.retrievalDetails.attempts[0]?.topSource).toEqual({ source: "docs/\ufffdrefunds.md", title: "Re\ufffdfunds" });
      expect(stored?.retrievalDetails.sanitizedFields).toEqual(
        expect.arrayContaining([
          "query",
          "retrievalDetails.evidence.0.title",
          "retrievalDetails.evidence.0.source",
          "retrievalDetails.evidence.0.preview",
          "retrievalDetails.attempts.0.topSource.source",
          "retrievalDetails.attempts.0.topSource.title",
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

    it("R29: a spooled record whose retrievalDetails.attempts is missing, not a list, or holds an entry that is not an object is skipped and kept in rejected.jsonl; the records around it are stored and listed", async () => {
      const errors: LookupKnowledgeError[] = [];
      const store = open(errors);
      const { base, since, until } = window(2405);
      const known = makeRecord(0, base);
      const [first] = known.retrievalDetails.attempts;
      await store.record(known); // makes the spool folder
      const odd = (suffix: string, retrievalDetails: unknown): string =>
        JSON.stringify({ ...known, id: `${known.id}-${suffix}`, retrievalDetails });
      // What another writer, a hand edit or an older version could leave in the shared spool.
      const lines = [
        odd("missing", { evidence: [] }),
        odd("text", { ...known.retrievalDetails, attempts: "none" }),
        odd("null", { ...known.retrievalDetails, attempts: [first, null] }),
        odd("number", { ...known.retrievalDetails, attempts: [7] }),
        odd("list", { ...known.retrievalDetails, attempts: [[first]] }),
        JSON.stringify(makeRecord(1, base)),
      ];
      writeFileSync(join(store.directory, "spool", "000000000000001-1-ab-000001.jsonl"), `${lines.join("\n")}\n`);
      const report = await store.flush();
      expect(report).toMatchObject({ flushed: 2, inserted: 2, quarantined: 0 });
      expect(report.skipped.map((line) => line.reason)).toEqual([
        "retrievalDetails.attempts is not a list (undefined)",
        'retrievalDetails.attempts is not a list ("none")',
        "retrievalDetails.attempts.1 is not an object (null)",
        "retrievalDetails.attempts.0 is not an object (7)",
        `retrievalDetails.attempts.0 is not an object (${JSON.stringify([first]).slice(0, 39)}…)`,
      ]);
      expect((await store.list({ since, until })).map((record) => record.id).sort()).toEqual([known.id, makeRecord(1, base).id]);
      expect(await store.get(`${known.id}-missing`)).toBeUndefined();
      const rejected = readFileSync(join(store.directory, "spool", "rejected.jsonl"), "utf8")
        .trim()
        .split("\n");
      expect(rejected.map((line) => (JSON.parse(line) as { text?: string }).text)).toEqual(lines.slice(0, 5));
      expect(errors.map((error) => error.code)).toEqual(Array(5).fill("trace_spool_line_skipped"));
    });

    it("R29: rows already in the database whose retrievalDetails, attempts or times are not what this version writes are listed and read, each repair named; the good rows around them too", async () => {
      const errors: LookupKnowledgeError[] = [];
      const { base, since, until } = window(2406);
      const known = makeRecord(0, base);
      const [first] = known.retrievalDetails.attempts;
      const id = (suffix: string): string => `${known.id}-${suffix}`;
      // Rows another writer or a hand edit put straight into the table: no spool line, no parser.
      const rows: Array<{ id: string; details: unknown; columns?: Record<string, string> }> = [
        { id: known.id, details: known.retrievalDetails },
        { id: id("missing"), details: { evidence: [] } },
        { id: id("text"), details: { ...known.retrievalDetails, attempts: "none" } },
        { id: id("object"), details: { ...known.retrievalDetails, attempts: { 1: first } } },
        { id: id("entries"), details: { ...known.retrievalDetails, attempts: [first, null, 7, "x", [first]] } },
        { id: id("null-details"), details: null },
        { id: id("list-details"), details: [] },
        // Times JavaScript cannot hold; `recorded_at` is set below.
        { id: id("times"), details: known.retrievalDetails, columns: { createdAt: "infinity" } },
        {
          id: id("columns"),
          details: known.retrievalDetails,
          // Values of a later version: text columns, so read as stored (wrong only in type).
          columns: { evidenceStatus: "maybe", retrievalLayer: "L9", fallbackReason: "later_reason" },
        },
      ];
      const database = await target.openAtMigration(migrationCount);
      try {
        for (const [index, row] of rows.entries()) {
          const record = { ...known, id: row.id, createdAt: new Date(base.getTime() + index * 1000).toISOString(), ...row.columns };
          await insertRawRecord(database.sql.bind(database), record, row.details);
        }
        await database.sql("update tool_invocation set recorded_at = '-infinity' where id = $1", [id("times")]);
      } finally {
        await database.close();
      }
      const store = open(errors, database.storeOptions);
      // The whole table, newest first, as the inspector's Traces view asks for it: `infinity` sorts first.
      const all = await store.list();
      const inWindow = rows.map((row) => row.id).filter((each) => each !== id("times"));
      expect(all.map((record) => record.id)).toEqual([id("times"), ...[...inWindow].reverse()]);
      const listed = await store.list({ since, until });
      expect(listed.map((record) => record.id).sort()).toEqual([...inWindow].sort());
      expect((await store.get(known.id))?.retrievalDetails).toEqual(known.retrievalDetails);

      const missing = await store.get(id("missing"));
      expect(missing?.retrievalDetails).toEqual({
        evidence: [],
        attempts: [],
        readNotes: ["retrievalDetails.attempts is missing; read as []"],
      });
      for (const [suffix, stored] of [
        ["text", '"none"'],
        ["object", "object"],
      ] as const) {
        const read = await store.get(id(suffix));
        expect(read?.retrievalDetails).toEqual({
          ...known.retrievalDetails,
          attempts: [],
          readNotes: [`retrievalDetails.attempts is not a list (the stored value is ${stored}); read as []`],
        });
      }
      const entries = await store.get(id("entries"));
      const broken = (attempt: number, stored: string) => ({
        attempt,
        outcome: "error",
        candidateCount: 0,
        evidenceCount: 0,
        rejectedHits: 0,
        durationMs: 0,
        error: `the stored attempt ${stored} is not an object`,
      });
      expect(entries?.retrievalDetails.attempts).toEqual([
        first,
        broken(2, "null"),
        broken(3, "7"),
        broken(4, '"x"'),
        broken(5, "array(1)"),
      ]);
      expect(entries?.retrievalDetails).not.toHaveProperty("readNotes");
      for (const [suffix, stored] of [
        ["null-details", "null"],
        ["list-details", "array(0)"],
      ] as const) {
        expect((await store.get(id(suffix)))?.retrievalDetails).toEqual({
          attempts: [],
          readNotes: [`retrievalDetails is not an object (the stored value is ${stored}); read as { attempts: [] }`],
        });
      }
      const times = await store.get(id("times"));
      expect(times).toMatchObject({ createdAt: "Invalid Date", recordedAt: null });
      expect(times?.retrievalDetails).toEqual({
        ...known.retrievalDetails,
        readNotes: [
          'createdAt is not a time this version can read; read as "Invalid Date"',
          "recordedAt is not a time this version can read; read as null",
        ],
      });
      const columns = await store.get(id("columns"));
      expect(columns).toMatchObject({ evidenceStatus: "maybe", retrievalLayer: "L9", fallbackReason: "later_reason" });
      expect(columns?.retrievalDetails).toEqual(known.retrievalDetails);
      // The list reads the rows as get does.
      for (const record of all) expect(record).toEqual(await store.get(record.id));
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
