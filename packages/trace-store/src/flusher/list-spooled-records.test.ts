import { describe, expect, it } from "vitest";
import { makeRecord } from "../../test/make-record.js";
import { listSpooledRecords as listFromLines } from "./list-spooled-records.js";
import type { SpooledLine } from "../spool/read-spooled-lines.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";

/** The records as spooled lines (readSpooledLines reads them from files: read-spooled-lines.test.ts). */
const listSpooledRecords = (
  records: readonly ToolInvocationRecord[],
  ...rest: [Parameters<typeof listFromLines>[1], number | null | undefined]
) =>
  listFromLines(
    records.map((record): SpooledLine => ({ ...record, time: Date.parse(record.createdAt), record: () => record })),
    ...rest,
  );

// Issue 35 item 4: `traces` answers from the spool when the spool alone decides the listing.
// The answer's equality with the database's is proven on PGlite (list-from-spool.pglite.test.ts).
const base = new Date(Date.UTC(2030, 0, 1));
const at = (seconds: number): number => base.getTime() + seconds * 1000;
const spooled = Array.from({ length: 10 }, (_, index) => makeRecord(index, base));
const ids = (records: ReturnType<typeof listSpooledRecords>) => records?.map((record) => record.id);

describe("listSpooledRecords (issue 35 item 4: traces without starting the database)", () => {
  it("with a database that holds nothing, the spool's newest matching records, newest first", () => {
    expect(ids(listSpooledRecords(spooled, { limit: 3 }, null))).toEqual([spooled[9]?.id, spooled[8]?.id, spooled[7]?.id]);
    expect(ids(listSpooledRecords(spooled, { found: false, limit: 20 }, null))).toEqual([9, 7, 5, 3, 1].map((index) => spooled[index]?.id));
    expect(listSpooledRecords(spooled, { limit: 0 }, null)).toEqual([]);
  });

  it("a limit that is not a whole number of 0 or more, or a time that is no date, is left to the database, whatever it answers", () => {
    for (const limit of [-1, 2.5, Number.NaN]) expect(listSpooledRecords(spooled, { limit }, null), String(limit)).toBeUndefined();
    expect(listSpooledRecords(spooled, { since: new Date("not a date") }, null)).toBeUndefined();
    expect(listSpooledRecords(spooled, { until: new Date(Number.NaN) }, null)).toBeUndefined();
  });

  it("a record the database may refuse or read otherwise (a count past its integer column, a time without a zone or with microseconds) is left to it", () => {
    const refused = [
      { candidateCount: 2 ** 31 },
      { createdAt: "2031-01-01T00:00:00" },
      { createdAt: "2031-01-01" },
      { createdAt: "2031-01-01T00:00:00.000001Z" },
      { createdAt: "Jan 1 2031 00:00:00 GMT" },
    ];
    for (const overrides of refused) {
      const record = makeRecord(40, base, overrides);
      expect(listSpooledRecords([record], { limit: 5 }, null), JSON.stringify(overrides)).toBeUndefined();
    }
    const zoned = makeRecord(40, base, { createdAt: "2031-01-01T02:00:00.5+02:00" });
    expect(listSpooledRecords([zoned], { limit: 5 }, null)?.[0]?.createdAt).toBe("2031-01-01T00:00:00.500Z");
  });

  it("with a database whose newest record is unknown (made before this version), the database is asked", () => {
    expect(listSpooledRecords(spooled, { limit: 3 }, undefined)).toBeUndefined();
  });

  it("the spool decides when its `limit` matching records are all newer than the database's newest, not otherwise", () => {
    expect(ids(listSpooledRecords(spooled, { limit: 3 }, at(6)))).toEqual([9, 8, 7].map((index) => spooled[index]?.id));
    // The third newest starts at the database's newest: a stored record at that time could come first.
    expect(listSpooledRecords(spooled, { limit: 3 }, at(7))).toBeUndefined();
    // Fewer matching records than asked for: stored ones may follow them.
    expect(listSpooledRecords(spooled, { limit: 20 }, at(0))).toBeUndefined();
  });

  it("the spool decides when the asked time range starts after the database's newest record", () => {
    const since = new Date(at(5));
    expect(ids(listSpooledRecords(spooled, { since, limit: 20 }, at(4)))).toEqual([9, 8, 7, 6, 5].map((index) => spooled[index]?.id));
    expect(listSpooledRecords(spooled, { since, limit: 20 }, at(5))).toBeUndefined();
  });

  it("filters as the database does: until, fallback reason, query text in either query ignoring case, query hashes", () => {
    const until = new Date(at(2));
    expect(ids(listSpooledRecords(spooled, { until, limit: 20 }, null))).toEqual([spooled[1]?.id, spooled[0]?.id]);
    const reason = spooled[0]?.fallbackReason as string;
    expect(
      listSpooledRecords(spooled, { fallbackReason: reason, limit: 20 }, null)?.every((record) => record.fallbackReason === reason),
    ).toBe(true);
    const records = [
      makeRecord(0, base, { id: "a", query: "How do I ROTATE the key?", transformedQuery: "x" }),
      makeRecord(1, base, { id: "b", query: "x", transformedQuery: "rotate keys" }),
      makeRecord(2, base, { id: "c", query: "hmac-sha256:abc", transformedQuery: "hmac-sha256:abc" }),
      makeRecord(3, base, { id: "d", query: "50%_off", transformedQuery: "y" }),
    ];
    expect(ids(listSpooledRecords(records, { queryText: "Rotate", limit: 20 }, null))).toEqual(["b", "a"]);
    expect(ids(listSpooledRecords(records, { queryText: "rotate", queryHashes: ["hmac-sha256:abc"], limit: 20 }, null))).toEqual([
      "c",
      "b",
      "a",
    ]);
    expect(ids(listSpooledRecords(records, { queryText: "%_", limit: 20 }, null))).toEqual(["d"]);
  });

  it("a query text beyond ASCII is left to the database (its case folding is its own)", () => {
    expect(listSpooledRecords(spooled, { queryText: "退款", limit: 20 }, null)).toBeUndefined();
  });

  it("records are given back as the database reads them: sanitised, time with milliseconds, recordedAt null", () => {
    const [record] =
      listSpooledRecords([makeRecord(0, base, { query: "bad\u0000query", createdAt: "2030-01-01T00:00:00Z" })], {}, null) ?? [];
    expect(record?.query).toBe("bad\ufffdquery");
    expect(record?.createdAt).toBe("2030-01-01T00:00:00.000Z");
    expect(record?.retrievalDetails.sanitizedFields).toEqual(["query"]);
    expect(record?.recordedAt).toBeNull();
  });
});
