import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createQueryHashesForSearch } from "./create-query-hashes-for-search.js";
import { hashQuery } from "./hash-query.js";
import { createQueryHashKey } from "./query-hash-key.js";
import { resolveQueryHashKey } from "./query-storage.js";

const root = mkdtempSync(join(tmpdir(), "trace-query-hashes-"));

describe("createQueryHashesForSearch (R28: a text search finds the records kept hashed)", () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("looks for the folder's key again when it had none: a key made later (by a writer, or a read under hash) is used", () => {
    const directory = join(root, "traces");
    const hashes = createQueryHashesForSearch(createQueryHashKey(directory, undefined));
    expect(hashes("refunds")).toEqual([]);
    const key = resolveQueryHashKey(directory, { create: true }) as string;
    expect(hashes("refunds")).toEqual([hashQuery("refunds", key)]);
  });
});
