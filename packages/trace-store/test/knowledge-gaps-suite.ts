import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurableTraceStore, type DurableTraceStoreOptions } from "../src/durable/create-durable-trace-store.js";
import type { DurableTraceStore } from "../src/durable/durable-trace-store.js";
import type { DatabaseTarget } from "./database-targets.js";
import { insertRawRecord } from "./insert-raw-record.js";
import { makeGapRecord, type GapLookup } from "./make-gap-record.js";

const analyze = (text: string): string[] => text.toLowerCase().match(/[a-z]{3,}/g) ?? [];

/** A day of lookups: two topics, a refused page, answered and failed lookups, one outside the period. */
function lookups(base: Date): GapLookup[] {
  const at = (minutes: number): Date => new Date(base.getTime() + minutes * 60_000);
  const list: GapLookup[] = [];
  const add = (count: number, lookup: Omit<GapLookup, "id" | "createdAt">, start: number): void => {
    for (let index = 0; index < count; index += 1) {
      list.push({ ...lookup, id: `${base.getTime()}-${list.length}`, createdAt: at(start + index) });
    }
  };
  add(3, { query: "kubernetes helm chart", outcome: "refused", topScore: 0.001, threshold: 0.04 }, 0);
  add(2, { query: "deploy kubernetes cluster", outcome: "refused", topScore: 0.002, threshold: 0.04 }, 10);
  add(
    2,
    {
      query: "export invoices csv",
      outcome: "refused",
      topScore: 0.03,
      threshold: 0.04,
      entries: [{ source: "billing/invoices.md", title: "Invoices" }],
    },
    20,
  );
  add(
    1,
    {
      query: "invoices csv columns",
      outcome: "low",
      topScore: 0.035,
      threshold: 0.04,
      evidence: [{ source: "billing/export.md", title: "Export" }],
    },
    30,
  );
  add(4, { query: "rotate webhook secret", outcome: "answered", topScore: 0.9, threshold: 0.04 }, 40);
  add(2, { query: "kubernetes helm chart", outcome: "refused", topScore: 0.001, threshold: 0.04, error: "search_failed: down" }, 50);
  add(1, { query: "kubernetes helm chart", outcome: "refused", topScore: 0.001, threshold: 0.04 }, 60 * 30);
  return list;
}

/**
 * `knowledgeGaps` on a real database (issue 37 items 3 and 5): the same records give the same
 * report on PGlite and on PostgreSQL, asserted here once for both.
 */
export function defineKnowledgeGapsSuite(name: string, makeTarget: () => Promise<DatabaseTarget>): void {
  describe(`knowledge gaps on ${name}`, () => {
    let target: DatabaseTarget;
    let root: string;
    const stores: DurableTraceStore[] = [];
    beforeAll(async () => {
      target = await makeTarget();
      root = mkdtempSync(join(tmpdir(), "trace-gaps-suite-"));
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
        onError: () => undefined,
        ...options,
      });
      stores.push(store);
      return store;
    }

    it("issue 37 item 5: the database aggregates the period's refused and low-relevance lookups; answered, failed and later ones are left out", async () => {
      const base = new Date(Date.UTC(2031, 2, 1, 10));
      const store = open();
      for (const lookup of lookups(base)) store.append(makeGapRecord(lookup));
      const report = await store.knowledgeGaps({ since: base, until: new Date(base.getTime() + 3_600_000), analyze });
      expect(report).toMatchObject({ lookupsRead: 8, distinctQueries: 4, queryText: "shown", salience: "records" });
      expect(
        report.groups.map((group) => ({
          kind: group.kind,
          lookups: group.lookups,
          refused: group.refusedLookups,
          low: group.lowRelevanceLookups,
          examples: group.examples,
          terms: group.terms,
          closest: group.closest,
          bestScore: group.bestScore,
          threshold: group.threshold,
          ids: group.lookupIds.length,
          perDay: group.perDay,
          firstSeen: group.firstSeen,
          lastSeen: group.lastSeen,
        })),
      ).toEqual([
        {
          kind: "missing-page",
          lookups: 5,
          refused: 5,
          low: 0,
          examples: ["kubernetes helm chart", "deploy kubernetes cluster"],
          terms: ["kubernetes"],
          closest: [],
          bestScore: 0.002,
          threshold: 0.04,
          ids: 5,
          perDay: [{ day: "2031-03-01", lookups: 5 }],
          firstSeen: "2031-03-01T10:00:00.000Z",
          lastSeen: "2031-03-01T10:11:00.000Z",
        },
        {
          kind: "refused-page",
          lookups: 3,
          refused: 2,
          low: 1,
          examples: ["export invoices csv", "invoices csv columns"],
          terms: ["csv", "invoices"],
          closest: [
            { source: "billing/export.md", title: "Export", bestScore: 0.035 },
            { source: "billing/invoices.md", title: "Invoices", bestScore: null },
          ],
          bestScore: 0.035,
          threshold: 0.04,
          ids: 3,
          perDay: [{ day: "2031-03-01", lookups: 3 }],
          firstSeen: "2031-03-01T10:20:00.000Z",
          lastSeen: "2031-03-01T10:30:00.000Z",
        },
      ]);
      // Newest first, across the group's queries.
      expect(report.groups[0]?.lookupIds[0]).toBe(`${base.getTime()}-4`);
    });

    it("issue 37 item 1: a group's closest pages are its lookups' best attempts' pages with their best score; an older record without one still reads", async () => {
      const base = new Date(Date.UTC(2034, 2, 1, 10));
      const store = open();
      const signing = { source: "security/signing.md", title: "Signing keys" };
      const at = (minutes: number): Date => new Date(base.getTime() + minutes * 60_000);
      const refused = (id: string, minutes: number, topScore: number, topSource?: { source: string; title?: string }) =>
        makeGapRecord({
          id,
          query: "rotate signing keys",
          createdAt: at(minutes),
          outcome: "refused",
          topScore,
          threshold: 0.04,
          ...(topSource ? { topSource } : {}),
        });
      store.append(refused("sign-1", 0, 0.025, signing));
      store.append(refused("sign-2", 1, 0.031, signing));
      store.append(refused("sign-older", 2, 0.001));
      // Two attempts: the page behind the better one is the lookup's closest, the other is not shown.
      const retried = refused("sign-retried", 3, 0.01, { source: "security/audit.md" });
      const [first] = retried.retrievalDetails.attempts;
      if (first === undefined) throw new Error("the record has no attempt");
      retried.retrievalDetails.attempts = [first, { ...first, attempt: 2, topScore: 0.02, topSource: { source: "security/tokens.md" } }];
      store.append(retried);
      // A hand-edited page that is not one (its source a number) is not shown.
      store.append(refused("sign-odd", 4, 0.005, { source: 7 } as unknown as { source: string }));
      const report = await store.knowledgeGaps({ since: base, until: at(60), analyze });
      expect(report.groups).toHaveLength(1);
      expect(report.groups[0]).toMatchObject({
        kind: "refused-page",
        lookups: 5,
        bestRefusedScore: 0.031,
        closest: [
          { source: "security/signing.md", title: "Signing keys", bestScore: 0.031 },
          { source: "security/tokens.md", bestScore: 0.02 },
        ],
      });
    });

    it("issue 37 item 3: traces prune removes what gaps reads", async () => {
      const base = new Date(Date.UTC(2032, 2, 1, 10));
      const store = open();
      for (const lookup of lookups(base)) store.append(makeGapRecord(lookup));
      const period = { since: base, until: new Date(base.getTime() + 2 * 86_400_000), analyze };
      expect((await store.knowledgeGaps(period)).lookupsRead).toBe(9);
      await store.prune(new Date(base.getTime() + 60 * 60_000));
      const after = await store.knowledgeGaps(period);
      expect(after.lookupsRead).toBe(1);
      expect(after.groups.map((group) => group.examples)).toEqual([["kubernetes helm chart"]]);
    });

    it("issue 37 item 5: a hand-edited row (attempts not a list, a score as text, hints not an object) is read, not failed on", async () => {
      const base = new Date(Date.UTC(2033, 2, 1, 10));
      const old = await target.openAtMigration(99);
      try {
        const record = makeGapRecord({
          id: "odd",
          query: "odd kubernetes row",
          createdAt: base,
          outcome: "refused",
          topScore: 0.01,
          threshold: 0.04,
        });
        const odd = { ...record.retrievalDetails, attempts: { topScore: "high" }, hints: "none", referenceThreshold: "0.04", evidence: 7 };
        await insertRawRecord(old.sql.bind(old), record, odd);
        const second = makeGapRecord({ id: "odd2", query: "odd kubernetes row", createdAt: base, outcome: "refused", threshold: 0.04 });
        const stranger = { ...second.retrievalDetails, attempts: [{ topScore: "0.5" }, 3, null], hints: { entries: [{ source: 5 }, "x"] } };
        await insertRawRecord(old.sql.bind(old), second, stranger);
      } finally {
        await old.close();
      }
      const store = open({ ...old.storeOptions });
      const report = await store.knowledgeGaps({ since: base, until: new Date(base.getTime() + 1000), analyze });
      expect(report.groups).toHaveLength(1);
      expect(report.groups[0]).toMatchObject({ lookups: 2, bestScore: null, threshold: 0.04, closest: [], kind: "missing-page" });
    }, 60_000);

    /** The period's lookups and two with numbers no float8 holds, written as raw rows into `database`. */
    async function insertPeriod(database: { sql: (text: string, parameters?: unknown[]) => Promise<unknown> }, base: Date) {
      for (const lookup of lookups(base)) await insertRawRecord(database.sql.bind(database), makeGapRecord(lookup));
      const huge = makeGapRecord({
        id: `${base.getTime()}-huge`,
        query: "kubernetes helm chart",
        createdAt: base,
        outcome: "refused",
        topScore: 0.25,
        topSource: { source: "docs/closest.md" },
        threshold: 0.04,
      });
      const json = JSON.stringify(huge.retrievalDetails)
        .replace('"topScore":0.25', '"topScore":1e400')
        .replace('"referenceThreshold":0.04', '"referenceThreshold":1e-400');
      expect(json).toContain("1e400");
      expect(json).toContain("1e-400");
      await insertRawRecord(database.sql.bind(database), huge, huge.retrievalDetails, json);
    }

    it("issue 37 item 5: rows stored before migration 0002 (no gap fields) and rows written after it give the same report; a number no float8 holds reads as null", async () => {
      const base = new Date(Date.UTC(2034, 2, 1, 10));
      const period = { since: base, until: new Date(base.getTime() + 2 * 86_400_000), analyze };
      const before = await target.openAtMigration(2);
      const after = await target.openAtMigration(99);
      try {
        await insertPeriod(before, base);
        await insertPeriod(after, base);
        // Written after the migration, every row holds the fields the database derived from its details.
        const fields = (await after.sql("select id, gap_fields from tool_invocation where id like $1 order by id", [
          `${base.getTime()}-%`,
        ])) as Array<{ id: string; gap_fields: unknown }>;
        expect(fields).toHaveLength(16);
        // No attempt has a score a float8 holds, so no page is behind one.
        expect(fields.find((row) => row.id.endsWith("-huge"))?.gap_fields).toEqual({
          score: null,
          source: null,
          title: null,
          threshold: null,
          level: "none",
        });
        expect(fields.find((row) => row.id === `${base.getTime()}-5`)?.gap_fields).toEqual({
          score: 0.03,
          source: null,
          title: null,
          threshold: 0.04,
          level: "none",
        });
        // A hand edit of the details derives them again.
        await after.sql(
          `update tool_invocation set retrieval_details = jsonb_set(retrieval_details, '{attempts,0,topScore}', '0.5') where id = $1`,
          [`${base.getTime()}-5`],
        );
        const edited = (await after.sql("select gap_fields from tool_invocation where id = $1", [`${base.getTime()}-5`])) as Array<{
          gap_fields: { score: number };
        }>;
        expect(edited[0]?.gap_fields.score).toBe(0.5);
        await after.sql(
          `update tool_invocation set retrieval_details = jsonb_set(retrieval_details, '{attempts,0,topScore}', '0.03') where id = $1`,
          [`${base.getTime()}-5`],
        );
      } finally {
        await before.close();
        await after.close();
      }
      const older = await open({ ...before.storeOptions }).knowledgeGaps(period);
      const newer = await open({ ...after.storeOptions }).knowledgeGaps(period);
      expect(older.lookupsRead).toBe(10);
      expect(newer.groups).toEqual(older.groups);
      expect(newer.lookupsRead).toBe(older.lookupsRead);
    }, 90_000);

    it("issue 37 item 5: a period reaching past the years a database holds (--since 99999999d) reads, lists and prunes, not fails", async () => {
      // A database of its own: the suite's shared one holds the other tests' records.
      const own = await target.openAtMigration(99);
      await own.close();
      const store = open({ ...own.storeOptions });
      const base = new Date(Date.UTC(2035, 2, 1, 10));
      for (const lookup of lookups(base).slice(0, 3)) store.append(makeGapRecord(lookup));
      const ages = { since: new Date(-8_640_000_000_000_000), until: new Date(8_640_000_000_000_000) };
      expect((await store.knowledgeGaps({ ...ages, analyze })).lookupsRead).toBe(3);
      expect(await store.list({ since: ages.since, until: ages.until })).toHaveLength(3);
      expect(await store.prune(ages.since)).toBe(0);
      expect(await store.prune(ages.until)).toBe(3);
    }, 60_000);
  });
}
