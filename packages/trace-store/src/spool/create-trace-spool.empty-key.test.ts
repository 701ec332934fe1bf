import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeRecord } from "../../test/make-record.js";
import { createHashOnRead } from "../record/create-hash-on-read.js";
import { createQueryHashKey } from "../record/query-hash-key.js";
import { queryHashKeyFile } from "../record/query-storage.js";
import { createTraceSpool } from "./create-trace-spool.js";

const root = mkdtempSync(join(tmpdir(), "trace-spool-empty-key-"));

/** Every byte written under the spool folder, as text. */
function spooled(directory: string): string {
  const folder = join(directory, "spool");
  let text = "";
  try {
    for (const entry of readdirSync(folder)) text += readFileSync(join(folder, entry), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  return text;
}

describe("R28: a folder whose key file is empty (a crash before its bytes reached the disk, a stray touch)", () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("a spool under queryStorage hash keeps no query text, and a read under hash shows none: both are refused, naming the key file", async () => {
    for (const content of ["", "\n", "  \n"]) {
      const directory = mkdtempSync(join(root, "traces-"));
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, queryHashKeyFile), content);
      const record = makeRecord(0, new Date(Date.UTC(2034, 0, 1)));
      const spool = createTraceSpool({ directory, queryStorage: "hash" });
      try {
        expect(() => spool.append(record), JSON.stringify(content)).toThrow(queryHashKeyFile);
      } finally {
        await spool.close();
      }
      expect(spooled(directory)).not.toContain(record.query);
      // A read under hash of a record kept as text refuses it too, rather than show its text.
      expect(() => createHashOnRead("hash", createQueryHashKey(directory, undefined))(record)).toThrow(queryHashKeyFile);
    }
  });
});
