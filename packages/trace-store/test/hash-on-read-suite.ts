import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRecord } from "./make-record.js";
import { createDurableTraceStore } from "../src/durable/create-durable-trace-store.js";
import { queryHashPrefix } from "../src/record/hash-query.js";
import { queryHashKeyFile } from "../src/record/query-storage.js";
import type { StoredToolInvocation } from "../src/database/rows/stored-tool-invocation.js";
import type { DatabaseTarget } from "./database-targets.js";

/** The record as a comparison across ids and times sees it. */
const content = (record: StoredToolInvocation | undefined) => {
  if (record === undefined) return undefined;
  const { id, recordedAt, createdAt, ...rest } = record;
  return rest;
};

/**
 * A folder whose setting went from `text` to `hash`: the records kept as text before must be
 * read hashed, with the folder's key, as a record written under `hash` is kept (on PGlite and
 * on PostgreSQL alike).
 */
export function defineHashOnReadSuite(name: string, makeTarget: () => Promise<DatabaseTarget>): void {
  describe(`a durable store under queryStorage hash reads records kept as text hashed, on ${name} (R27 privacy, issue 37 follow-up)`, () => {
    let target: DatabaseTarget;
    let root: string;
    beforeAll(async () => {
      target = await makeTarget();
      root = mkdtempSync(join(tmpdir(), "trace-hash-on-read-"));
    }, 120_000);
    afterAll(async () => {
      await target?.cleanup();
      rmSync(root, { recursive: true, force: true });
    });

    it("list, get, listFromSpool, getFromSpool and knowledgeGaps show such a record as the same record written under hash, and never its text", async () => {
      const directory = join(root, "traces");
      const options = { directory, ...target.storeOptions, flushIntervalMs: 0, idleCloseMs: 100, onError: () => undefined };
      const base = new Date(Date.UTC(2033, 0, 1));
      const later = new Date(base.getTime() + 60_000);
      const asText = createDurableTraceStore(options);
      const flushedAsText = makeRecord(0, base, { id: "text-flushed" });
      asText.append(flushedAsText);
      const refusedAsText = makeRecord(1, base, { id: "text-refused" });
      asText.append(refusedAsText);
      await asText.flush();
      const spooledAsText = makeRecord(0, later, { id: "text-spooled", durationMs: flushedAsText.durationMs });
      asText.append(spooledAsText);
      await asText.close({ flush: false });

      expect(existsSync(join(directory, queryHashKeyFile))).toBe(false);
      const hashing = createDurableTraceStore({ ...options, queryStorage: "hash" });
      try {
        // A text record still in the spool, read without the database.
        const fromSpool = hashing.getFromSpool("text-spooled");
        expect(fromSpool?.query.startsWith(queryHashPrefix)).toBe(true);
        // That read made the folder's key, readable by its owner only.
        expect(statSync(join(directory, queryHashKeyFile)).mode & 0o777).toBe(0o600);
        // The newest record is in the spool: it alone decides a listing of one (PGlite only:
        // with PostgreSQL, other folders' spools fill the database, and the list reads it).
        const listedFromSpool = hashing.listFromSpool({ limit: 1 });
        if (target.driver === "pglite") expect(listedFromSpool?.map((record) => record.query.startsWith(queryHashPrefix))).toEqual([true]);
        else expect(listedFromSpool).toBeUndefined();
        // A search of the spool finds the text record by its whole query, not by a part of it.
        if (target.driver === "pglite") {
          const spooledWords = spooledAsText.query.split(/\s+/).filter((word) => word.length > 2);
          for (const part of [spooledWords[0] as string, spooledAsText.query.toUpperCase()])
            expect(hashing.listFromSpool({ since: later, queryText: part }), part).toEqual([]);
          const whole = hashing.listFromSpool({ since: later, queryText: spooledAsText.query });
          expect(whole?.map((record) => record.id)).toEqual(["text-spooled"]);
        }

        // The same lookup written under hash: kept hashed with the folder's key.
        hashing.append(makeRecord(0, base, { id: "hashed" }));
        const listed = (await hashing.list({ since: base })).filter((record) => record.id !== "text-refused");
        expect(listed.map((record) => record.id).sort()).toEqual(["hashed", "text-flushed", "text-spooled"]);
        const written = listed.find((record) => record.id === "hashed");
        expect(written?.query.startsWith(queryHashPrefix)).toBe(true);
        for (const record of listed) expect(content(record), record.id).toEqual(content(written));
        expect(content(await hashing.get("text-flushed"))).toEqual(content(written));
        expect(content(fromSpool)).toEqual(content(written));
        // A search by the query's text still finds the records kept as text, hashed.
        const searched = await hashing.list({ since: base, queryText: flushedAsText.query });
        expect(searched.map((record) => record.id).sort()).toEqual(["hashed", "text-flushed", "text-spooled"]);
        // But not by a part of it: a record shown hashed must not be told apart by the words it held.
        const words = flushedAsText.query.split(/\s+/).filter((word) => word.length > 2);
        expect(words.length).toBeGreaterThan(1);
        for (const part of [words[0] as string, words.slice(1).join(" "), flushedAsText.query.toUpperCase()]) {
          expect(await hashing.list({ since: base, queryText: part }), part).toEqual([]);
        }

        // A knowledge gap report of the store shows no text of a refused lookup kept as text,
        // as its reads do, also when the caller does not repeat the setting.
        const gaps = await hashing.knowledgeGaps({
          since: base,
          until: new Date(base.getTime() + 3_600_000),
          analyze: (text) => text.split(/\s+/),
        });
        expect(gaps.distinctQueries).toBeGreaterThan(0);
        expect(gaps.queryText).toBe("hashed");

        // Neither the query's text nor the terms it matched are in anything read (the
        // knowledge base's own titles and sources, which may share its words, are kept).
        const read = [
          ...listed,
          fromSpool,
          ...(listedFromSpool ?? []),
          await hashing.get("text-spooled"),
          await hashing.get("text-refused"),
        ];
        expect(JSON.stringify(read)).not.toContain(flushedAsText.query);
        expect(JSON.stringify([read, gaps])).not.toContain(refusedAsText.query);
        for (const record of read) {
          const { keywords, entities, titles } = record?.retrievalDetails.hints ?? { keywords: [], entities: [], titles: [] };
          for (const term of [...keywords, ...entities, ...titles]) expect(term).toMatch(/^hash:[0-9a-f]{12}$/);
          for (const block of record?.retrievalDetails.evidence ?? [])
            for (const reason of block.hitReasons) expect(reason.replace(/"hash:[0-9a-f]{12}"/g, "")).not.toContain('"');
        }
      } finally {
        await hashing.close();
      }

      // The database still keeps them as they were written: only the reads hash them.
      const again = createDurableTraceStore(options);
      try {
        expect((await again.get("text-flushed"))?.query).toBe(flushedAsText.query);
        expect((await again.get("text-refused"))?.query).toBe(refusedAsText.query);
        // Moved from the spool into the database under hash, as it was written.
        expect((await again.get("text-spooled"))?.query).toBe(spooledAsText.query);
      } finally {
        await again.close();
      }
    }, 120_000);
  });
}
