import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeRecord } from "../../test/make-record.js";
import { createDurableTraceStore } from "./create-durable-trace-store.js";
import { queryHashPrefix } from "../record/hash-query.js";
import type { StoredToolInvocation } from "../database/rows/stored-tool-invocation.js";

// A folder whose setting went from `text` to `hash`: the records kept as text before must be
// read hashed, with the folder's key, as a record written under `hash` is kept.
const root = mkdtempSync(join(tmpdir(), "trace-hash-on-read-"));
const directory = join(root, "traces");
const base = new Date(Date.UTC(2033, 0, 1));
const options = { directory, flushIntervalMs: 0, idleCloseMs: 100, onError: () => undefined };

/** The record as a comparison across ids and times sees it. */
const content = (record: StoredToolInvocation | undefined) => {
  if (record === undefined) return undefined;
  const { id, recordedAt, createdAt, ...rest } = record;
  return rest;
};
const later = new Date(base.getTime() + 60_000);

describe("a durable store under queryStorage hash reads records kept as text hashed (R27 privacy, issue 37 follow-up)", () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("list, get, listFromSpool and getFromSpool show such a record as the same record written under hash, and never its text", async () => {
    const asText = createDurableTraceStore(options);
    const flushedAsText = makeRecord(0, base, { id: "text-flushed" });
    asText.append(flushedAsText);
    await asText.flush();
    const spooledAsText = makeRecord(0, later, { id: "text-spooled", durationMs: flushedAsText.durationMs });
    asText.append(spooledAsText);
    await asText.close({ flush: false });

    const hashing = createDurableTraceStore({ ...options, queryStorage: "hash" });
    try {
      // A text record still in the spool, read without the database.
      const fromSpool = hashing.getFromSpool("text-spooled");
      expect(fromSpool?.query.startsWith(queryHashPrefix)).toBe(true);
      // The newest record is in the spool: it alone decides a listing of one.
      const listedFromSpool = hashing.listFromSpool({ limit: 1 });
      expect(listedFromSpool?.map((record) => record.query.startsWith(queryHashPrefix))).toEqual([true]);

      // The same lookup written under hash: kept hashed with the folder's key.
      hashing.append(makeRecord(0, base, { id: "hashed" }));
      const listed = await hashing.list({ since: base });
      expect(listed.map((record) => record.id).sort()).toEqual(["hashed", "text-flushed", "text-spooled"]);
      const written = listed.find((record) => record.id === "hashed");
      expect(written?.query.startsWith(queryHashPrefix)).toBe(true);
      for (const record of listed) expect(content(record), record.id).toEqual(content(written));
      expect(content(await hashing.get("text-flushed"))).toEqual(content(written));
      expect(content(fromSpool)).toEqual(content(written));

      // Neither the query's text nor the terms it matched are in anything read (the
      // knowledge base's own titles and sources, which may share its words, are kept).
      const read = [...listed, fromSpool, ...(listedFromSpool ?? []), await hashing.get("text-spooled")];
      expect(JSON.stringify(read)).not.toContain(flushedAsText.query);
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
    } finally {
      await again.close();
    }
  }, 120_000);
});
