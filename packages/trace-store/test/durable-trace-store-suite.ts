// Over ~300 lines on purpose: the one suite every durable store (PGlite and PostgreSQL) passes,
// kept in one file so both drivers run exactly the same cases.
import { execFile, spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { LookupKnowledgeError } from "@lookup-knowledge/core";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableTraceStore, type DurableTraceStoreOptions } from "../src/durable/create-durable-trace-store.js";
import { createTraceRecorder } from "../src/recorder/create-trace-recorder.js";
import { openTraceDatabase } from "../src/database/open-trace-database.js";
import type { DurableTraceStore } from "../src/durable/durable-trace-store.js";
import { buildToolInvocationRecord } from "../src/record/build-tool-invocation-record.js";
import { hashQuery, hashQueryTerm } from "../src/record/hash-query.js";
import type { DatabaseTarget } from "./database-targets.js";
import { privateQuery, privateQueryResult } from "./lookup-result-fixtures.js";
import { insertRawRecord } from "./insert-raw-record.js";
import { makeRecord, window } from "./make-record.js";

const distIndex = fileURLToPath(new URL("../dist/index.js", import.meta.url));
/** Runs one statement in the database of `storeOptions`, outside any store. */
async function rawSql(storeOptions: Pick<DurableTraceStoreOptions, "databaseUrl" | "databaseDirectory">, text: string): Promise<void> {
  if (storeOptions.databaseUrl) {
    const client = new pg.Client({ connectionString: storeOptions.databaseUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
    return;
  }
  const client = await PGlite.create(storeOptions.databaseDirectory ?? "");
  try {
    await client.exec(text);
  } finally {
    await client.close();
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one suite of the durable trace store, run against each real database: PGlite and
 * PostgreSQL. `target` is made once per file (its database is shared; each test reads its
 * own time window and uses its own trace folder).
 */
export function defineDurableTraceStoreSuite(name: string, makeTarget: () => Promise<DatabaseTarget>): void {
  describe(`the durable trace store on ${name}`, () => {
    let target: DatabaseTarget;
    let root: string;
    const stores: DurableTraceStore[] = [];
    beforeAll(async () => {
      target = await makeTarget();
      root = mkdtempSync(join(tmpdir(), "trace-store-suite-"));
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
      await target?.cleanup();
      rmSync(root, { recursive: true, force: true });
    }, 60_000);

    function open(options: Partial<DurableTraceStoreOptions> = {}): DurableTraceStore {
      const store = createDurableTraceStore({
        directory: mkdtempSync(join(root, "traces-")),
        ...target.storeOptions,
        flushIntervalMs: 0,
        idleCloseMs: 100,
        onError: () => undefined,
        ...options,
      });
      stores.push(store);
      return store;
    }

    it("R27: a record comes back whole: every column and the retrieval details", async () => {
      const store = open();
      const { base, since, until } = window(2001);
      const records = [makeRecord(0, base), makeRecord(1, base, { error: "the port was down" })];
      for (const record of records) await store.record(record);
      const listed = await store.list({ since, until });
      expect(listed.map(({ recordedAt, ...record }) => record)).toEqual([...records].reverse());
      for (const record of listed) expect(Date.parse(record.recordedAt ?? "")).not.toBeNaN();
      const one = await store.get(records[0]?.id ?? "");
      expect(one?.retrievalDetails).toEqual(records[0]?.retrievalDetails);
      expect(one?.retrievalDetails.attempts[0]?.filter).toEqual({ $and: [{ tenant: { $eq: "acme" } }, { category: { $eq: "billing" } }] });
      expect(await store.get("no-such-id")).toBeUndefined();
    });

    it("R27, R29, issue 37 item 1: an attempt's page behind its top score (topSource) round-trips; one without it reads without it; one of the wrong type is left out with a read note", async () => {
      const store = open();
      const { base } = window(2015);
      const withPage = makeRecord(0, base);
      const [first, second] = withPage.retrievalDetails.attempts;
      if (first === undefined || second === undefined) throw new Error("the fixture has two attempts");
      withPage.retrievalDetails.attempts = [{ ...first, topSource: { source: "billing/refunds.md", title: "Refunds" } }, second];
      const odd = makeRecord(1, base);
      odd.retrievalDetails.attempts = [{ ...first, topSource: { source: 5 } as unknown as { source: string } }, second];
      await store.record(withPage);
      await store.record(odd);
      expect(await store.flush()).toMatchObject({ inserted: 2, skipped: [] });
      const stored = await store.get(withPage.id);
      expect(stored?.retrievalDetails.attempts[0]?.topSource).toEqual({ source: "billing/refunds.md", title: "Refunds" });
      expect(stored?.retrievalDetails.attempts[1]).not.toHaveProperty("topSource");
      expect(stored?.retrievalDetails.readNotes).toBeUndefined();
      const read = await store.get(odd.id);
      expect(read?.retrievalDetails.attempts[0]).not.toHaveProperty("topSource");
      expect(read?.retrievalDetails.attempts[0]).toMatchObject({ outcome: "low_quality", topScore: 0.41 });
      expect(read?.retrievalDetails.readNotes).toEqual([
        "retrievalDetails.attempts[0].topSource is not { source, title? } (its source is 5); left out",
      ]);
    });

    it("issue 13: the reference threshold comes back beside the attempts; a record written without it (older) still flushes and reads back without it", async () => {
      const store = open();
      const { base, since, until } = window(2013);
      const current = makeRecord(0, base);
      const { referenceThreshold: _dropped, ...olderDetails } = current.retrievalDetails;
      const older = makeRecord(2, base, { retrievalDetails: olderDetails });
      await store.record(current);
      await store.record(older);
      expect(await store.flush()).toMatchObject({ inserted: 2, skipped: [] });
      const stored = await store.get(current.id);
      expect(stored?.retrievalDetails.referenceThreshold).toBe(0.6);
      expect(stored?.retrievalDetails.attempts[0]).toMatchObject({ outcome: "low_quality", topScore: 0.41 });
      const storedOlder = await store.get(older.id);
      expect(storedOlder?.retrievalDetails).not.toHaveProperty("referenceThreshold");
      expect(await store.list({ since, until })).toHaveLength(2);
    });

    it("issue 13: a spooled record whose reference threshold is not a number from 0 to 1 is skipped, naming the field; the others are stored", async () => {
      const store = open();
      const { base, since, until } = window(2014);
      const spool = join(store.directory, "spool");
      const bad = (index: number, referenceThreshold: unknown) => {
        const record = makeRecord(index, base);
        return JSON.stringify({ ...record, retrievalDetails: { ...record.retrievalDetails, referenceThreshold } });
      };
      rmSync(spool, { recursive: true, force: true });
      await store.record(makeRecord(0, base)); // makes the folder
      const lines = [bad(1, "0.6"), bad(2, 1.5), bad(3, null), JSON.stringify(makeRecord(4, base))];
      writeFileSync(join(spool, "000000000000001-1-ab-000001.jsonl"), `${lines.join("\n")}\n`);
      const report = await store.flush();
      expect(report.flushed).toBe(2);
      expect(report.skipped.map((line) => line.reason)).toEqual([
        'retrievalDetails.referenceThreshold is not a number from 0 to 1 ("0.6")',
        "retrievalDetails.referenceThreshold is not a number from 0 to 1 (1.5)",
        "retrievalDetails.referenceThreshold is not a number from 0 to 1 (null)",
      ]);
      expect((await store.list({ since, until })).map((record) => record.id).sort()).toEqual(
        [0, 4].map((index) => makeRecord(index, base).id),
      );
    });

    it("R27: lists by time range, found or not, fallback reason, query text and limit, newest first", async () => {
      const store = open();
      const { base, since, until } = window(2002);
      for (let index = 0; index < 10; index += 1) {
        await store.record(makeRecord(index, base, index === 3 ? { query: "100% Refund_window?" } : {}));
      }
      const all = await store.list({ since, until });
      expect(all).toHaveLength(10);
      expect(all.map((record) => record.createdAt)).toEqual([...all.map((record) => record.createdAt)].sort().reverse());
      expect(await store.list({ since: new Date(base.getTime() + 5000), until })).toHaveLength(5);
      expect(await store.list({ since, until: new Date(base.getTime() + 2000) })).toHaveLength(2);
      const none = await store.list({ since, until, found: false });
      expect(none).toHaveLength(5);
      for (const record of none) expect(record.evidenceStatus).toBe("no_evidence");
      const fallback = await store.list({ since, until, fallbackReason: "filtered_vector_low_quality" });
      expect(fallback).toHaveLength(5);
      expect(await store.list({ since, until, fallbackReason: "filtered_vector_error" })).toHaveLength(0);
      // Case does not matter; % and _ are literal.
      expect((await store.list({ since, until, queryText: "100% refund_" })).map((record) => record.query)).toEqual([
        "100% Refund_window?",
      ]);
      expect(await store.list({ since, until, queryText: "1000%" })).toHaveLength(0);
      expect(await store.list({ since, until, queryText: "VISA REFUNDS" })).toHaveLength(5);
      expect(await store.list({ since, until, limit: 3 })).toHaveLength(3);
    });

    it("R29: records are flushed exactly once: a second flush, a re-sent id and a lost offset add nothing", async () => {
      const store = open();
      const { base, since, until } = window(2003);
      for (let index = 0; index < 20; index += 1) await store.record(makeRecord(index, base));
      const first = await store.flush();
      expect(first).toMatchObject({ flushed: 20, inserted: 20, skipped: [] });
      expect(await store.flush()).toMatchObject({ flushed: 0, inserted: 0 });
      // The recorder may send a record again after a timeout: the database keeps one.
      await store.record(makeRecord(4, base));
      expect(await store.flush()).toMatchObject({ flushed: 1, inserted: 0 });
      // A crash after the insert committed and before the offset was written: the same records again.
      for (let index = 20; index < 25; index += 1) await store.record(makeRecord(index, base));
      const progress = join(store.directory, "spool", "progress.json");
      const before = readFileSync(progress, "utf8");
      await store.flush();
      writeFileSync(progress, before);
      expect(await store.flush()).toMatchObject({ flushed: 5, inserted: 0 });
      const listed = await store.list({ since, until, limit: 100 });
      expect(listed).toHaveLength(25);
      expect(new Set(listed.map((record) => record.id)).size).toBe(25);
    });

    it("R29: two flushers of one spool take turns, and each record is inserted once", async () => {
      const directory = mkdtempSync(join(root, "traces-"));
      const writer = open({ directory });
      const other = open({ directory });
      const { base, since, until } = window(2004);
      for (let index = 0; index < 300; index += 1) await writer.record(makeRecord(index, base));
      const reports = await Promise.all([writer.flush(), other.flush(), writer.flush()]);
      expect(reports.reduce((sum, report) => sum + report.inserted, 0)).toBe(300);
      expect(reports.reduce((sum, report) => sum + report.flushed, 0)).toBe(300);
      expect(await writer.list({ since, until, limit: 1000 })).toHaveLength(300);
    });

    it("R29: the database down during 1,000 lookups: none fails, all 1,000 are there afterwards, once", async () => {
      const errors: LookupKnowledgeError[] = [];
      const store = open({ flushIntervalMs: 10, lockWaitMs: 20, connectTimeoutMs: 500, onError: (error) => errors.push(error) });
      const recorderErrors: unknown[] = [];
      const recorder = createTraceRecorder(store, { onError: (error) => recorderErrors.push(error) });
      const { base, since, until } = window(2005);
      await target.cut();
      let failed = 0;
      try {
        for (let index = 0; index < 1000; index += 1) {
          try {
            recorder.record(makeRecord(index, base)); // what the retriever does at the end of a lookup
          } catch {
            failed += 1;
          }
          // Give the background flusher its chances while the database is down.
          if (index % 100 === 99) await sleep(25);
        }
        await expect(store.flush()).rejects.toMatchObject({ retryable: true });
        expect(errors.length).toBeGreaterThanOrEqual(1);
        expect(errors[0]?.code).toMatch(/^trace_database_(unreachable|unavailable)$/);
      } finally {
        await target.restore();
      }
      expect(failed).toBe(0);
      expect(recorderErrors).toEqual([]);
      expect(await recorder.flush()).toMatchObject({ pending: 0 });
      const listed = await store.list({ since, until, limit: 2000 });
      expect(listed).toHaveLength(1000);
      expect(new Set(listed.map((record) => record.id)).size).toBe(1000);
    });

    it("issue 33: the spool holds at most maxSpoolBytes of records not yet in the database; past it the recorder keeps records in memory, drops the oldest past maxPending saying so, and writes the rest once the database is back", async () => {
      const errors: LookupKnowledgeError[] = [];
      const store = open({
        flushIntervalMs: 0,
        lockWaitMs: 20,
        connectTimeoutMs: 500,
        maxSpoolBytes: 20_000,
        onError: (error) => errors.push(error),
      });
      const recorderErrors: LookupKnowledgeError[] = [];
      const recorder = createTraceRecorder(store, { maxPending: 50, retryDelayMs: 1, onError: (error) => recorderErrors.push(error) });
      const { base, since, until } = window(2013);
      await target.cut();
      try {
        for (let index = 0; index < 300; index += 1) recorder.record(makeRecord(index, base));
        const spooled = readdirSync(join(store.directory, "spool"))
          .filter((name) => /\.(open|jsonl)$/.test(name))
          .reduce((sum, name) => sum + readFileSync(join(store.directory, "spool", name)).length, 0);
        // The bound, plus the one record that crossed it.
        expect(spooled).toBeLessThan(20_000 + 4_000);
        expect(() => store.append(makeRecord(999, base))).toThrow(/maxSpoolBytes 20000/);
        expect(recorderErrors.some((error) => error.code === "trace_record_failed")).toBe(true);
        const dropped = recorderErrors.filter((error) => error.code === "trace_record_dropped");
        expect(dropped.length).toBeGreaterThan(0);
      } finally {
        await target.restore();
      }
      // Each flush makes room for the next records waiting in memory.
      let pending = -1;
      for (let round = 0; round < 50 && pending !== 0; round += 1) {
        await store.flush();
        pending = (await recorder.flush()).pending;
      }
      expect(pending).toBe(0);
      const stored = await store.list({ since, until, limit: 1000 });
      const dropped = recorderErrors.filter((error) => error.code === "trace_record_dropped").length;
      // Every record is in the database or was reported dropped: none is lost without a word.
      expect(stored.length + dropped).toBe(300);
    });

    it("R29: a process killed between append and flush loses nothing; its torn last line is skipped and reported", async () => {
      const directory = mkdtempSync(join(root, "traces-"));
      const { base, since, until } = window(2006);
      const script = `
        const { createTraceSpool } = await import(${JSON.stringify(distIndex)});
        const template = JSON.parse(process.env.TEMPLATE);
        const spool = createTraceSpool({ directory: process.env.DIRECTORY });
        for (let index = 0; index < 50; index += 1) {
          spool.append({ ...template, id: template.id + "-" + index, createdAt: new Date(Date.parse(template.createdAt) + index * 1000).toISOString() });
        }
        process.kill(process.pid, "SIGKILL");`;
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
        env: { ...process.env, DIRECTORY: directory, TEMPLATE: JSON.stringify(makeRecord(0, base)) },
        stdio: "inherit",
      });
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, exitSignal) => resolve(exitSignal)));
      expect(signal).toBe("SIGKILL");
      const [segment] = readdirSync(join(directory, "spool")).filter((entry) => entry.endsWith(".open"));
      expect(segment).toBeDefined();
      appendFileSync(join(directory, "spool", segment ?? ""), '{"id":"torn-by-the-cra');
      const skipped: LookupKnowledgeError[] = [];
      const store = open({ directory, onError: (error) => skipped.push(error) });
      const report = await store.flush();
      expect(report).toMatchObject({ flushed: 50, inserted: 50, segmentsRemoved: 1 });
      expect(report.skipped).toHaveLength(1);
      expect(report.skipped[0]?.reason).toMatch(/unfinished last line/);
      expect(skipped.map((error) => error.code)).toEqual(["trace_spool_line_skipped"]);
      expect(readFileSync(join(directory, "spool", "rejected.jsonl"), "utf8")).toContain("torn-by-the-cra");
      expect(await store.list({ since, until, limit: 100 })).toHaveLength(50);
      expect(readdirSync(join(directory, "spool")).filter((entry) => entry.endsWith(".open") || entry.endsWith(".jsonl"))).toEqual([
        "rejected.jsonl",
      ]);
    });

    it("R29: a damaged line in the middle is skipped and reported; the records around it are kept", async () => {
      const store = open();
      const { base, since, until } = window(2007);
      const spool = join(store.directory, "spool");
      const lines = [makeRecord(0, base), "not json at all", { id: "x", found: "yes" }, makeRecord(1, base)].map((entry) =>
        typeof entry === "string" ? entry : JSON.stringify(entry),
      );
      rmSync(spool, { recursive: true, force: true });
      await store.record(makeRecord(2, base)); // makes the folder
      writeFileSync(join(spool, "000000000000001-1-ab-000001.jsonl"), `${lines.join("\n")}\n`);
      const report = await store.flush();
      expect(report.flushed).toBe(3);
      expect(report.skipped.map((line) => line.reason)).toEqual([
        expect.stringMatching(/^not JSON/),
        expect.stringMatching(/toolName is not a string/),
      ]);
      expect(await store.list({ since, until })).toHaveLength(3);
    });

    it("R29: two processes appending to one spool at once never interleave their lines", async () => {
      const directory = mkdtempSync(join(root, "traces-"));
      const { base, since, until } = window(2008);
      const script = (prefix: string): string => `
        const { createTraceSpool } = await import(${JSON.stringify(distIndex)});
        const template = JSON.parse(process.env.TEMPLATE);
        const spool = createTraceSpool({ directory: process.env.DIRECTORY, maxSegmentBytes: 200000 });
        for (let index = 0; index < 400; index += 1) {
          spool.append({ ...template, id: "${prefix}-" + index, query: "${prefix} ".repeat(200) });
        }
        await spool.close();`;
      const run = promisify(execFile);
      const env = { ...process.env, DIRECTORY: directory, TEMPLATE: JSON.stringify(makeRecord(0, base)) };
      await Promise.all(["left", "right"].map((prefix) => run(process.execPath, ["--input-type=module", "-e", script(prefix)], { env })));
      const store = open({ directory });
      const report = await store.flush();
      expect(report).toMatchObject({ flushed: 800, inserted: 800, skipped: [] });
      for (const prefix of ["left", "right"]) {
        const listed = await store.list({ since, until, queryText: `${prefix} ${prefix}`, limit: 1000 });
        expect(listed).toHaveLength(400);
        for (const record of listed) expect(record.query).toBe(`${prefix} `.repeat(200));
      }
    });

    it("R29: prune deletes the calls older than the cut-off and nothing newer", async () => {
      const store = open();
      const { base, since, until } = window(2009);
      for (let index = 0; index < 10; index += 1) await store.record(makeRecord(index, base));
      expect(await store.prune(new Date(base.getTime() + 4000))).toBeGreaterThanOrEqual(4);
      const left = await store.list({ since, until });
      expect(left.map((record) => record.createdAt)).toEqual(
        Array.from({ length: 6 }, (_, index) => new Date(base.getTime() + (9 - index) * 1000).toISOString()),
      );
    });

    it("R28: with queryStorage hash, neither the spool nor the database holds the query; its exact text still finds it", async () => {
      const store = open({ queryStorage: "hash" });
      const { base, since, until } = window(2010);
      const record = makeRecord(0, base, { query: "secret customer question", transformedQuery: "secret customer question Visa" });
      await store.record(record);
      const spooled = readdirSync(join(store.directory, "spool")).map((entry) => {
        try {
          return readFileSync(join(store.directory, "spool", entry), "utf8");
        } catch {
          return "";
        }
      });
      expect(spooled.join("")).not.toContain("secret customer");
      const [stored] = await store.list({ since, until });
      const key = readFileSync(join(store.directory, "query-hash.key"), "utf8").trim();
      expect(stored?.query).toBe(hashQuery("secret customer question", key));
      expect(stored?.transformedQuery).toBe(hashQuery("secret customer question Visa", key));
      expect(JSON.stringify(stored)).not.toContain("secret customer");
      expect(await store.list({ since, until, queryText: "secret customer question" })).toHaveLength(1);
      expect(await store.list({ since, until, queryText: "secret customer" })).toHaveLength(0);
    });

    it("R28: with queryStorage hash, no query word is anywhere in the spooled line or the stored row; hit reasons and hints hold keyed hashes", async () => {
      const store = open({ queryStorage: "hash" });
      const { base, since, until } = window(2012);
      const record = buildToolInvocationRecord({
        result: privateQueryResult(),
        id: `${base.getTime()}-private`,
        startedAt: base,
        durationMs: 12,
        error: `the port quoted ${JSON.stringify(privateQuery)} and then "QUOKKA migration"`,
      });
      const words = [...new Set(privateQuery.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])];
      expect(words).toEqual(["zebra", "quokka", "migration", "timeline"]);
      const inText = (text: string): string[] => words.filter((word) => text.toLowerCase().includes(word));
      expect(inText(JSON.stringify(record))).toEqual(words); // the record as built holds them all
      await store.record(record);
      const spool = join(store.directory, "spool");
      const spooled = readdirSync(spool)
        .filter((entry) => entry.endsWith(".open") || entry.endsWith(".jsonl"))
        .map((entry) => readFileSync(join(spool, entry), "utf8"))
        .join("");
      expect(spooled).toContain(record.id);
      expect(inText(spooled)).toEqual([]);
      const [stored] = await store.list({ since, until });
      expect(stored?.id).toBe(record.id);
      expect(inText(JSON.stringify(stored))).toEqual([]);
      const key = readFileSync(join(store.directory, "query-hash.key"), "utf8").trim();
      const details = stored?.retrievalDetails;
      expect(details?.evidence[0]?.hitReasons).toEqual([
        "semantic match 0.81",
        `heading mentions "${hashQueryTerm("zebra", key)}"`,
        `title mentions query term "${hashQueryTerm("quokka", key)}"`,
        `keyword "${hashQueryTerm("migration", key)}" (L0 hint)`,
        `entity "${hashQueryTerm("Zebra", key)}" (L0 hint)`,
        `title matches L0 hint "${hashQueryTerm("Migration Timeline", key)}"`,
      ]);
      expect(details?.hints).toMatchObject({
        keywords: [hashQueryTerm("migration", key), hashQueryTerm("quokka", key)],
        entities: [hashQueryTerm("Zebra", key)],
        titles: [hashQueryTerm("Migration Timeline", key)],
        domains: ["fauna"],
        entries: [{ id: "herds", source: "docs/fauna/herds.md", title: hashQueryTerm("Migration Timeline", key), domain: "fauna" }],
      });
      expect(hashQueryTerm("zebra", key)).toMatch(/^hash:[0-9a-f]{12}$/);
      expect(details?.attempts[0]?.error).toBe(
        'search_failed: the index refused "[query] [query] [query] [query]? [query]": [query] is not allowed',
      );
      expect(stored?.error).toBe('the port quoted "[query]" and then "[query] [query]"');
      expect(await store.list({ since, until, queryText: privateQuery })).toHaveLength(1);
    });

    it("R27: a database at the first migration is migrated forward at open; its rows are kept", async () => {
      const old = await target.openAtMigration(1);
      const { base } = window(2011);
      const record = makeRecord(0, base);
      try {
        await insertRawRecord(old.sql.bind(old), record);
        expect(
          await old.sql("select indexname from pg_indexes where tablename = 'tool_invocation' and indexname like '%created_at%'"),
        ).toEqual([]);
      } finally {
        await old.close();
      }
      const current = await openTraceDatabase({
        ...(old.storeOptions.databaseUrl ? { url: old.storeOptions.databaseUrl } : { directory: old.storeOptions.databaseDirectory ?? "" }),
      });
      try {
        const { recordedAt, ...kept } = (await current.get(record.id)) ?? { recordedAt: null };
        expect(kept).toEqual(record);
        expect(recordedAt).not.toBeNull();
        await current.insert([makeRecord(1, base)]);
        expect(await current.count()).toBe(2);
      } finally {
        await current.close();
      }
    });

    it("R29: a migrate that fails with a data error (SQLSTATE 23514) is the database's failure: no spooled record is quarantined, all go in once it is fixed", async () => {
      const old = await target.openAtMigration(1);
      // The second migration's bookkeeping row breaks this check: migrate fails with class 23.
      try {
        await old.sql("alter table drizzle.__drizzle_migrations add constraint lk_no_more_migrations check (id < 2)");
      } finally {
        await old.close();
      }
      const errors: LookupKnowledgeError[] = [];
      const directory = mkdtempSync(join(root, "traces-"));
      const store = createDurableTraceStore({
        directory,
        ...old.storeOptions,
        flushIntervalMs: 0,
        idleCloseMs: 0,
        onError: (error) => errors.push(error),
      });
      stores.push(store);
      const { base, since, until } = window(2012);
      for (let index = 0; index < 5; index += 1) await store.record(makeRecord(index, base));
      const failure = await store.flush().then(
        () => undefined,
        (error: unknown) => error as LookupKnowledgeError,
      );
      expect(failure?.code).toBeDefined();
      expect(failure?.code).not.toBe("trace_record_rejected");
      expect(failure?.message).toMatch(/migrate/);
      expect(errors.filter((error) => error.code === "trace_record_rejected")).toEqual([]);
      expect(readdirSync(join(directory, "spool"))).not.toContain("rejected.jsonl");
      // Fixed: every spooled record goes in.
      await rawSql(old.storeOptions, "alter table drizzle.__drizzle_migrations drop constraint lk_no_more_migrations");
      const report = await store.flush();
      expect(report).toMatchObject({ flushed: 5, inserted: 5, quarantined: 0 });
      expect(await store.list({ since, until, limit: 10 })).toHaveLength(5);
    });
  });
}
