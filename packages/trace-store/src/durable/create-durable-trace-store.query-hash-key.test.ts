import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeRecord } from "../../test/make-record.js";
import { queryHashKeyFile } from "../record/query-storage.js";
import { createTraceSpool } from "../spool/create-trace-spool.js";
import { createDurableTraceStore } from "./create-durable-trace-store.js";

const base = new Date(Date.UTC(2033, 0, 1));

describe("a durable trace store's query-hash key (hash storage)", () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
  });

  it("issue 36 (session 16, seen and left item 3): is read once for the store: its writes, searches and hashing on read use the key the spool made, whatever happens to the file after", async () => {
    const directory = mkdtempSync(join(tmpdir(), "lk-store-key-"));
    folders.push(directory);
    // Kept as text, before queryStorage was "hash".
    const asText = createTraceSpool({ directory });
    const older = makeRecord(0, base, { id: "older", query: "How do I rotate the webhook secret?" });
    await asText.record(older);
    await asText.close();

    const store = createDurableTraceStore({ directory, queryStorage: "hash", flushIntervalMs: 0, onError: () => undefined });
    try {
      const newer = makeRecord(1, base, { id: "newer", query: older.query });
      store.append(newer); // the spool makes the folder's key
      // The file goes away (or is replaced) while the store is open: the store keeps the key it read.
      rmSync(join(directory, queryHashKeyFile));
      const stored = store.getFromSpool("newer")?.query;
      expect(stored).toMatch(/^hmac-sha256:/);
      // The record kept as text is shown hashed with the same key, so the same query shows the same hash.
      expect(store.getFromSpool("older")?.query).toBe(stored);
      // A search by the query's text finds both by that hash.
      expect(
        store
          .listFromSpool({ queryText: older.query })
          ?.map((record) => record.id)
          .sort(),
      ).toEqual(["newer", "older"]);
    } finally {
      await store.close({ flush: false });
    }
  });
});
