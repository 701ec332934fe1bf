import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeRecord } from "../../test/make-record.js";
import { createDurableTraceStore } from "./create-durable-trace-store.js";
import { databaseNewestFile } from "./database-newest.js";
import type { StoredToolInvocation } from "../database/rows/stored-tool-invocation.js";
import type { TraceListQuery } from "./durable-trace-store.js";

// Issue 35 item 4: `traces` answers from the spool, without starting the embedded database,
// when the spool alone decides the listing; the answer must be the database's.
const root = mkdtempSync(join(tmpdir(), "trace-list-from-spool-"));
const base = new Date(Date.UTC(2032, 0, 1));
const withoutRecordedAt = (records: readonly StoredToolInvocation[] | undefined) => records?.map(({ recordedAt, ...record }) => record);

describe("listFromSpool and getFromSpool against PGlite (issue 35 item 4, R29)", () => {
  const store = createDurableTraceStore({
    directory: join(root, "traces"),
    flushIntervalMs: 0,
    idleCloseMs: 100,
    onError: () => undefined,
  });
  afterAll(async () => {
    await store.close();
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  const records = [
    ...Array.from({ length: 24 }, (_, index) => makeRecord(index, base)),
    // Three calls that started at the same millisecond: ordered by id, as the database orders them (C collation).
    ...["tie-b", "Tie-c", "tie-a"].map((id) => makeRecord(30, base, { id, query: `Refund ${id}` })),
    makeRecord(31, base, { id: "nul", query: "refund\u0000 with a NUL", createdAt: "2032-01-01T00:00:31Z" }),
    // Letters beyond ASCII whose JavaScript lower case is ASCII (Kelvin sign, dotted capital I).
    // One id spooled twice (a record written again): the database keeps one of them.
    makeRecord(34, base, { id: "twice", query: "first of twice" }),
    makeRecord(35, base, { id: "twice", query: "second of twice" }),
    makeRecord(32, base, { id: "kelvin", query: "\u212Aelvin \u0130stanbul" }),
  ];
  const since = new Date(base.getTime() + 10_000);
  const until = new Date(base.getTime() + 20_000);
  const queries: TraceListQuery[] = [
    {},
    { limit: 5 },
    { limit: 0 },
    { found: false, limit: 20 },
    { fallbackReason: records[0]?.fallbackReason as string, limit: 20 },
    { queryText: "REFUND", limit: 20 },
    { queryText: "kelvin", limit: 20 },
    { queryText: "i", limit: 20 },
    { since, limit: 20 },
    { since, until, found: true },
  ];

  it("with an empty database the spool gives every listing and record, the same as the database gives once they are flushed", async () => {
    for (const record of records) store.append(record);
    const fromSpool = queries.map((query) => store.listFromSpool(query));
    for (const [index, answer] of fromSpool.entries()) expect(answer, JSON.stringify(queries[index])).toBeDefined();
    const one = store.getFromSpool("Tie-c");
    expect(store.getFromSpool("no-such-id")).toBeUndefined();

    await store.flush();
    for (const [index, query] of queries.entries()) {
      const fromDatabase = await store.list(query);
      expect(withoutRecordedAt(fromSpool[index]), JSON.stringify(query)).toEqual(withoutRecordedAt(fromDatabase));
    }
    const { recordedAt, ...stored } = (await store.get("Tie-c")) as StoredToolInvocation;
    expect(Date.parse(recordedAt ?? "")).not.toBeNaN();
    expect({ ...one, recordedAt: undefined }).toEqual({ ...stored, recordedAt: undefined });
    // Flushed, the spool holds none of them any more.
    expect(store.getFromSpool("Tie-c")).toBeUndefined();
  }, 120_000);

  it("after a flush, the spool decides only a listing whose records are all newer than the database's newest; the answers still match", async () => {
    const newer = Array.from({ length: 8 }, (_, index) => makeRecord(100 + index, base));
    for (const record of newer) store.append(record);
    const fromSpool = store.listFromSpool({ limit: 5 });
    expect(fromSpool?.map((record) => record.id)).toEqual(
      newer
        .slice(3)
        .reverse()
        .map((record) => record.id),
    );
    expect(store.listFromSpool({ limit: 20 })).toBeUndefined(); // older records are in the database
    expect(store.listFromSpool({ since: new Date(base.getTime() + 100_000) })).toBeDefined();
    expect(withoutRecordedAt(fromSpool)).toEqual(withoutRecordedAt(await store.list({ limit: 5 })));
  }, 120_000);

  it("a database whose newest record is not known (no file beside it: an earlier version made it) is always asked", async () => {
    store.append(makeRecord(200, base));
    rmSync(databaseNewestFile(join(root, "traces", "database")));
    expect(store.listFromSpool({ limit: 1 })).toBeUndefined();
    // The next flush reads the newest stored record from the database and writes the file again.
    await store.flush();
    store.append(makeRecord(201, base));
    expect(store.listFromSpool({ limit: 1 })?.map((record) => record.id)).toEqual([makeRecord(201, base).id]);
  }, 120_000);

  it("a record the database refuses (a count past its integer column) is left to the database, which never lists it", async () => {
    const refused = makeRecord(300, base, { id: "huge-count", candidateCount: 2 ** 31 });
    store.append(refused);
    expect(store.listFromSpool({ limit: 1 })).toBeUndefined();
    expect(store.getFromSpool("huge-count")).toBeUndefined();
    expect((await store.list({ limit: 1 })).map((record) => record.id)).not.toContain("huge-count");
    expect(await store.get("huge-count")).toBeUndefined();
  }, 120_000);
});

describe("listFromSpool with PostgreSQL", () => {
  it("is never used: other data folders fill the same database", async () => {
    const directory = mkdtempSync(join(tmpdir(), "trace-list-from-spool-postgres-"));
    const store = createDurableTraceStore({ directory, databaseUrl: "postgres://user@127.0.0.1:1/traces", flushIntervalMs: 0 });
    store.append(makeRecord(0, base));
    expect(store.listFromSpool({ limit: 1 })).toBeUndefined();
    await store.close({ flush: false });
    rmSync(directory, { recursive: true, force: true });
  });
});
