import { openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { FileRecords, descriptorSource, memoryOffsets } from "../format/file-records.js";
import { openLocalSearchPortWithHooks } from "../open-local-search-port.js";
import { directory, useIndexFolder } from "../test/local-port-test-fixtures.js";
import { random } from "../test/seeded-random-test-fixtures.js";
import { countMetadataKeys } from "./count-metadata-keys.js";
import type { IndexSnapshot } from "./index-snapshot.js";

useIndexFolder();

function facetRecords(count: number, seed: number): KnowledgeRecord[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, index) => {
    let metadata: Record<string, unknown> = { docId: `doc${index}`, category: ["a", "b", "c"][Math.floor(3 * next())] };
    if (next() < 0.5) metadata["keywords"] = ["x", "y", "z"].filter(() => next() < 0.6);
    // Spread, not Object.assign: "__proto__" stays a key of its own.
    if (next() < 0.3) metadata = { ...metadata, ...(JSON.parse(`{"__proto__": "p${index % 2}"}`) as object) };
    return { id: `doc${index}#chunk-0`, content: `text ${index} ünïcode “quoted”`, metadata };
  });
}

/** The keys a first commit counts when the writer flushed its records as segments every `flushRecords` records. */
async function countedAfterFirstCommit(batch: KnowledgeRecord[], flushRecords: number, folder: string) {
  const writer = await openLocalSearchPortWithHooks({ directory: folder, mode: "write" }, { flushRecords });
  for (let start = 0; start < batch.length; start += 10) await writer.upsert(batch.slice(start, start + 10));
  await writer.commit();
  const keys = writer.metadataKeys();
  await writer.close();
  return keys;
}

describe("countMetadataKeys", () => {
  it("issue 36 item 3: a first commit counts the records of flushed segments from their files, run by run, as it counts records held in memory", async () => {
    const batch = facetRecords(230, 4);
    const fromFiles = await countedAfterFirstCommit(batch, 7, `${directory}/flushed`);
    const fromMemory = await countedAfterFirstCommit(batch, 1_000_000, `${directory}/held`);
    expect(fromFiles.keys).toEqual(fromMemory.keys);
    expect(fromFiles.keys.find((key) => key.key === "category")?.chunks).toBe(230);
    expect(fromFiles.keys.find((key) => key.key === "__proto__")?.chunks).toBeGreaterThan(0);
  });

  it("issue 36 item 3: metadata offsets that go back within a run are refused with a CorruptIndexError naming the file, not a RangeError", () => {
    const name = "records.metadata.json";
    writeFileSync(join(directory, name), '{"a":1},{"b":2},{"c":3},');
    const source = descriptorSource(openSync(join(directory, name), "r"), directory, name);
    // The first record claims to end past where the run ends.
    const file = new FileRecords(directory, {
      content: source,
      metadata: source,
      contentName: "records.content.txt",
      metadataName: name,
      count: 3,
      offsets: memoryOffsets(new Float64Array(4), Float64Array.of(16, 8, 16, 4)),
      metadataSha256: "",
    });
    const snapshot = { count: 3, records: { file, fileSlots: Int32Array.of(0, 1, 2), memory: [] } } as unknown as IndexSnapshot;
    try {
      expect(() => countMetadataKeys(undefined, [], snapshot, directory)).toThrow(
        /corrupt: the offsets of records\.metadata\.json decrease between records 0 and 3/,
      );
    } finally {
      source.close();
    }
  });
});
