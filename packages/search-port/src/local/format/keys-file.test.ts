import { openSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { BlockHasher } from "./block-checksums.js";
import { FileKeys, encodeKeys } from "./keys-file.js";
import { VerifiedFile } from "./verified-file.js";

let directory = "";
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "lookup-knowledge-keys-file-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A keys file of `ids` and `docIds` written and opened as a reader opens it (its block checksums made as a writer makes them). */
function openKeys(name: string, ids: readonly string[], docIds: ReadonlyArray<string | null>, damage?: (bytes: Buffer) => void): FileKeys {
  const bytes = Buffer.concat(encodeKeys(ids, docIds));
  damage?.(bytes);
  const hasher = new BlockHasher("xxh64");
  hasher.update(bytes);
  const path = join(directory, name);
  writeFileSync(path, bytes);
  return new FileKeys(new VerifiedFile(openSync(path, "r"), directory, name, bytes.length, hasher.digests(), "xxh64"), ids.length);
}

describe("FileKeys", () => {
  // More slots than one window of a scan, ids of one to four UTF-8 bytes a character, some records without a document.
  const count = 40_000;
  const ids = Array.from(
    { length: count },
    (_, slot) => `${slot % 7 === 0 ? "数据" : "doc"}-${slot}#chunk-${slot % 3}${slot % 11 === 0 ? "🙂" : ""}`,
  );
  const docIds = ids.map((id, slot) => (slot % 13 === 0 ? null : id.slice(0, id.indexOf("#"))));

  it("issue 36 (writer memory): eachId and eachDocId visit every slot's ids in order, a window at a time, as arrays() reads them", () => {
    const keys = openKeys("scan.keys.bin", ids, docIds);
    const seenIds: string[] = [];
    const seenDocIds: Array<string | null> = [];
    keys.eachId((id, slot) => {
      expect(slot).toBe(seenIds.length);
      seenIds.push(id);
    });
    keys.eachDocId((docId, slot) => {
      expect(slot).toBe(seenDocIds.length);
      seenDocIds.push(docId);
    });
    expect(seenIds).toEqual(ids);
    expect(seenDocIds).toEqual(docIds);
    expect(keys.id(16_384)).toBe(ids[16_384]);
    // Once read whole, the scans read the arrays kept.
    expect(keys.arrays()).toEqual({ ids, docIds });
    const again: string[] = [];
    keys.eachId((id) => again.push(id));
    expect(again).toEqual(ids);
  });

  it("issue 36 (writer memory): a scan refuses offsets that go back, naming the keys file", () => {
    // The 20,000th id's end moved before the previous one's (in the second window of a scan).
    const keys = openKeys("damaged.keys.bin", ids, docIds, (bytes) => bytes.writeUInt32LE(3, 4 * 20_000));
    expect(() => keys.eachId(() => undefined)).toThrow(CorruptIndexError);
    expect(() => keys.eachId(() => undefined)).toThrow(/damaged\.keys\.bin has decreasing id offsets/);
  });
});
