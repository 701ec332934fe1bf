import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeRecord } from "../../test/make-record.js";
import { raiseDatabaseNewest, readDatabaseNewest } from "./database-newest.js";

const root = mkdtempSync(join(tmpdir(), "database-newest-"));
const base = new Date(Date.UTC(2032, 0, 1));

describe("the embedded database's newest record, kept beside it (listFromSpool)", () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is null without a database folder, unknown (undefined) for a folder without the file", () => {
    const database = join(root, "fresh");
    expect(readDatabaseNewest(database)).toBeNull();
    mkdirSync(database);
    expect(readDatabaseNewest(database)).toBeUndefined();
  });

  it("is never lowered by raises that run at once (two flushers of one database: the file is read and written under a lock)", async () => {
    const database = join(root, "shared");
    mkdirSync(database);
    // Both find the file missing and ask the database; the one with the newer records answers last.
    const slowly = (ms: number) => () => new Promise<string | undefined>((resolve) => setTimeout(() => resolve(undefined), ms));
    await Promise.all([
      raiseDatabaseNewest(database, [makeRecord(20, base)], slowly(0)),
      raiseDatabaseNewest(database, [makeRecord(10, base)], slowly(50)),
    ]);
    expect(readDatabaseNewest(database)).toBe(base.getTime() + 20_000);
  });
});
