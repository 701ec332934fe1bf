import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeRecord } from "../../test/make-record.js";
import { createHashOnRead } from "./create-hash-on-read.js";
import { queryHashPrefix } from "./hash-query.js";
import { createQueryHashKey } from "./query-hash-key.js";
import { queryHashKeyFile } from "./query-storage.js";

const root = mkdtempSync(join(tmpdir(), "hash-on-read-"));
const record = makeRecord(0, new Date(Date.UTC(2034, 0, 1)));

describe("createHashOnRead (issue 37 follow-up)", () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("under text hands every record out as it is", () => {
    expect(createHashOnRead("text", createQueryHashKey(join(root, "text"), undefined))(record)).toBe(record);
  });

  it("where no key can be made (the folder cannot be created), still shows no text: a key of this process hashes it", () => {
    const file = join(root, "a-file");
    writeFileSync(file, "");
    const shown = createHashOnRead("hash", createQueryHashKey(join(file, "traces"), undefined))(record);
    expect(shown.query.startsWith(queryHashPrefix)).toBe(true);
    expect(JSON.stringify(shown)).not.toContain(record.query);
  });

  it("refuses an empty key file, naming it, rather than showing text", () => {
    const directory = join(root, "empty-key");
    const read = createHashOnRead("hash", createQueryHashKey(directory, undefined));
    // The folder exists with an empty key file in it.
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, queryHashKeyFile), "");
    expect(() => read(record)).toThrow(new RegExp(queryHashKeyFile));
  });
});
