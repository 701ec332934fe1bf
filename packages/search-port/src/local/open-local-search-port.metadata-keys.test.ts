import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { matchesFilter } from "../matches-filter.js";
import { CorruptIndexError } from "./errors/corrupt-index-error.js";
import { readManifest } from "./format/read-manifest.js";
import type { MetadataKeysSummary } from "./port/local-search-port.js";
import { countedValuesPerKey } from "./snapshot/metadata-key-counts.js";
import { build, directory, open, records, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { recomputeChecksums } from "./test/recompute-checksums.js";
import { rewriteAsFormat5 } from "./test/rewrite-as-format-5.js";
import { rewriteAsFormat6 } from "./test/rewrite-as-format-6.js";
import { random } from "./test/seeded-random-test-fixtures.js";

useIndexFolder();

const categories = ["billing", "security", "api", "accounts"];
const words = ["refund", "invoice", "webhook", "token", "audit", "quota"];

/** `count` records of `documents` documents, with a category, keyword lists, a number and a boolean, drawn from `seed`. */
function facetRecords(count: number, seed: number, prefix = "doc"): KnowledgeRecord[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  return Array.from({ length: count }, (_, index) => {
    const docId = `${prefix}${index % 40}`;
    const metadata: Record<string, unknown> = { docId, chunkIndex: Math.floor(index / 40), category: pick(categories) };
    if (next() < 0.7) metadata["keywords"] = [pick(words), pick(words)];
    if (next() < 0.3) metadata["year"] = pick([2023, 2024]);
    if (next() < 0.2) metadata["public"] = next() < 0.5;
    if (next() < 0.1) metadata["empty"] = null;
    return { id: `${docId}#chunk-${Math.floor(index / 40)}`, content: `${pick(words)} ${pick(words)} text ${index}`, metadata };
  });
}

/** The counts of `records` by the filter semantics themselves: for every key and value, the records `{ key: value }` matches. */
function expectedKeys(batch: KnowledgeRecord[], topValues = 10): MetadataKeysSummary["keys"] {
  const keys = new Set(batch.flatMap((record) => Object.keys(record.metadata)));
  const stats = [...keys].flatMap((key) => {
    const carrying = batch.filter((record) => matchesFilter(record.metadata, { [key]: { $exists: true } }));
    if (carrying.length === 0) return [];
    const values = new Map<string, string | number | boolean>();
    for (const record of carrying) {
      const field = record.metadata[key];
      for (const value of Array.isArray(field) ? field : [field]) {
        if (["string", "number", "boolean"].includes(typeof value)) values.set(`${typeof value}:${String(value)}`, value);
      }
    }
    const counted = [...values.values()].map((value) => ({
      value,
      chunks: batch.filter((record) => matchesFilter(record.metadata, { [key]: value })).length,
    }));
    counted.sort((left, right) => right.chunks - left.chunks || (String(left.value) < String(right.value) ? -1 : 1));
    return [{ key, chunks: carrying.length, distinctValues: counted.length, topValues: counted.slice(0, topValues) }];
  });
  return stats.sort((left, right) => right.chunks - left.chunks || (left.key < right.key ? -1 : 1));
}

describe("issue 35 item 4: the local index counts its metadata keys and values, for writing filters", () => {
  it("a commit keeps the counts (format 6), and a reader's metadataKeys gives each key's records and most common values as filters count them", async () => {
    const batch = facetRecords(400, 1);
    await (await build(batch)).close();
    const manifest = readManifest(directory);
    expect(manifest).toMatchObject({ formatVersion: 7, files: { facets: { name: expect.stringMatching(/\.facets\.json$/) } } });
    const summary = (await open()).metadataKeys();
    expect(summary.countedFrom).toBe("commit");
    expect(summary.keys).toEqual(expectedKeys(batch));
    expect(summary.keys.find((key) => key.key === "empty")).toBeUndefined();
    const keywords = summary.keys.find((key) => key.key === "keywords");
    // A list counts each distinct element once per record.
    expect(keywords?.topValues.reduce((total, value) => total + value.chunks, 0)).toBeGreaterThan(keywords?.chunks ?? 0);
    expect((await open()).metadataKeys({ topValues: 2 }).keys.find((key) => key.key === "category")?.topValues).toHaveLength(2);
  });

  it("a key named like an Object.prototype member (__proto__, constructor) is counted and kept as any other", async () => {
    const batch = facetRecords(40, 3).map((record, index) => ({
      ...record,
      metadata: { ...record.metadata, ...(JSON.parse(`{"__proto__": "p${index % 2}", "constructor": ${index % 3}}`) as object) },
    }));
    await (await build(batch)).close();
    const summary = (await open()).metadataKeys();
    expect(summary.countedFrom).toBe("commit");
    expect(summary.keys.find((key) => key.key === "__proto__")).toEqual({
      key: "__proto__",
      chunks: 40,
      distinctValues: 2,
      topValues: [
        { value: "p0", chunks: 20 },
        { value: "p1", chunks: 20 },
      ],
    });
    expect(summary.keys.find((key) => key.key === "constructor")?.chunks).toBe(40);
  });

  it("each commit updates the last one's counts by its changes, to the counts of a fresh index of the same records; a writer counts its pending changes", async () => {
    const first = facetRecords(300, 2);
    const writer = await build(first);
    const replaced = facetRecords(60, 3).map((record, index) => ({ ...record, id: first[index]?.id ?? record.id }));
    await writer.upsert(replaced);
    await writer.deleteDocuments(["doc7", "doc8"]);
    await writer.upsert(facetRecords(50, 4, "new"));
    const now = new Map<string, KnowledgeRecord>();
    for (const record of [...first, ...replaced]) now.set(record.id, record);
    for (const id of [...now.keys()]) if (/^doc[78]#/.test(id)) now.delete(id);
    for (const record of facetRecords(50, 4, "new")) now.set(record.id, record);
    const final = [...now.values()];
    expect(writer.metadataKeys().keys).toEqual(expectedKeys(final));
    await writer.commit();
    await writer.close();
    const reader = await open();
    expect(reader.stats().chunks).toBe(final.length);
    expect(reader.metadataKeys()).toMatchObject({ countedFrom: "commit", keys: expectedKeys(final) });
  });

  it("an index of format 5 (no counts kept) still opens and is counted when asked; the next commit keeps counts (format 6)", async () => {
    const batch = facetRecords(200, 5);
    await (await build(batch)).close();
    rewriteAsFormat5(directory);
    expect(readManifest(directory)?.files.facets).toBeUndefined();
    expect((await open()).metadataKeys()).toMatchObject({ countedFrom: "scan", keys: expectedKeys(batch) });

    const writer = await open({ mode: "write" });
    const extra = facetRecords(10, 6, "extra");
    await writer.upsert(extra);
    await writer.commit();
    expect(readManifest(directory)).toMatchObject({ formatVersion: 7, files: { facets: expect.any(Object) } });
    expect((await open()).metadataKeys()).toMatchObject({ countedFrom: "commit", keys: expectedKeys([...batch, ...extra]) });
  });

  it(`a key with more than ${countedValuesPerKey} distinct values keeps its record count and lists no values`, async () => {
    const batch = records.concat(
      Array.from({ length: countedValuesPerKey + 1 }, (_, index) => ({
        id: `many${index}#chunk-0`,
        content: `note ${index}`,
        metadata: { docId: `many${index}`, chunkIndex: 0, category: "notes" },
      })),
    );
    await (await build(batch)).close();
    const keys = (await open()).metadataKeys().keys;
    expect(keys.find((key) => key.key === "docId")).toEqual({ key: "docId", chunks: batch.length - 1, topValues: [] });
    expect(keys.find((key) => key.key === "category")?.topValues[0]).toEqual({ value: "notes", chunks: countedValuesPerKey + 1 });
  });

  it("refuses a counts file changed after the commit, naming it (CorruptIndexError)", async () => {
    await (await build(facetRecords(50, 7))).close();
    const name = readManifest(directory)?.files.facets?.name as string;
    writeFileSync(join(directory, name), readFileSync(join(directory, name), "utf8").replace('"billing"', '"billinh"'));
    const reader = await open();
    expect(() => reader.metadataKeys()).toThrow(/does not match its size or checksum/);
    recomputeChecksums(directory, (manifest) => {
      const entry = manifest.files.facets;
      if (entry !== undefined) manifest.files.facets = { ...entry, sha256: "0".repeat(64) };
    });
    let thrown: unknown;
    try {
      (await open()).metadataKeys();
    } catch (error) {
      thrown = error;
    }
    expect(CorruptIndexError.isInstance(thrown) && (thrown as Error).message.includes(name)).toBe(true);
  });

  it("refuses a counts file whose checksum matches but whose counts are malformed (a value that is an object, a count of 0)", async () => {
    for (const values of ['[[{"a":1},2]]', '[["billing",0]]', '[["billing"]]']) {
      await (await build(facetRecords(20, 11))).close();
      const name = readManifest(directory)?.files.facets?.name as string;
      const data = Buffer.from(`{"keys":{"category":{"chunks":20,"values":${values}}}}`);
      writeFileSync(join(directory, name), data);
      recomputeChecksums(directory, (manifest) => {
        manifest.files.facets = { name, bytes: data.length, sha256: createHash("sha256").update(data).digest("hex") };
      });
      const reader = await open();
      expect(() => reader.metadataKeys(), values).toThrow(`${name} is malformed`);
      await reader.close();
    }
  });

  it("a manifest of format 6 that lists no counts file is refused by metadataKeys, naming what is missing", async () => {
    await (await build(facetRecords(50, 8))).close();
    rewriteAsFormat6(directory);
    recomputeChecksums(directory, (manifest) => {
      delete manifest.files.facets;
    });
    const reader = await open();
    expect(reader.stats().chunks).toBe(50);
    expect(() => reader.metadataKeys()).toThrow(/the manifest of format 6 lists no facets file/);
  });

  it("a writer's commit over a damaged counts file counts every record again, so the next counts are right", async () => {
    const batch = facetRecords(120, 9);
    await (await build(batch)).close();
    const name = readManifest(directory)?.files.facets?.name as string;
    writeFileSync(join(directory, name), "{}");
    const writer = await open({ mode: "write" });
    const extra = facetRecords(5, 10, "extra");
    await writer.upsert(extra);
    await writer.commit();
    expect((await open()).metadataKeys()).toMatchObject({ countedFrom: "commit", keys: expectedKeys([...batch, ...extra]) });
  });

  it("refuses a topValues that is not a whole number of 0 or more", async () => {
    await (await build(records)).close();
    const reader = await open();
    expect(() => reader.metadataKeys({ topValues: -1 })).toThrow(/topValues must be a whole number of 0 or more, got -1/);
    expect(reader.metadataKeys({ topValues: 0 }).keys.every((key) => key.topValues.length === 0)).toBe(true);
  });
});
