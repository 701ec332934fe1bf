import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { readManifest } from "./format/read-manifest.js";
import { storedFileEntries } from "./format/segmented-manifest.js";
import type { SegmentedManifest } from "./format/segmented-manifest.js";
import { openLocalSearchPortWithHooks } from "./open-local-search-port.js";
import type { LocalSearchPort } from "./port/local-search-port.js";
import { build, directory, hashEmbeddings, open, opened, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { rewriteAsFormat6 } from "./test/rewrite-as-format-6.js";

useIndexFolder();

/** `count` one-chunk documents `<prefix><n>`, half of them `topic: "even"`. */
function documents(count: number, prefix = "doc", version = 1): KnowledgeRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${index}#chunk-0`,
    content: `alpha beta word${index % 7} v${version}`,
    metadata: { docId: `${prefix}${index}`, chunkIndex: 0, topic: index % 2 === 0 ? "even" : "odd" },
  }));
}

/** The chunks `metadataKeys` counts for `key` and for each of its values. */
function keyCounts(port: LocalSearchPort, key: string) {
  const found = port.metadataKeys().keys.find((entry) => entry.key === key);
  return { chunks: found?.chunks, values: Object.fromEntries((found?.topValues ?? []).map((value) => [value.value, value.chunks])) };
}

describe("issue 36 item 8: an index of format 6 keeps its metadata key counts through a reader, a writer and the upgrade", () => {
  it("issue 36 item 8: a reader of a format-6 index counts each record once", async () => {
    await (await build(documents(10))).close();
    rewriteAsFormat6(directory);
    const reader = await open();
    expect(keyCounts(reader, "topic")).toEqual({ chunks: 10, values: { even: 5, odd: 5 } });
  });

  it("issue 36 item 8: a writer of a format-6 index counts each record once before, through changes and after its upgrading commit", async () => {
    await (await build(documents(10))).close();
    rewriteAsFormat6(directory);
    // Segments are written every 8 records: the old generation is not one of them (it is rewritten by the commit alone).
    const writer = await openLocalSearchPortWithHooks({ directory, mode: "write", minScore: 0 }, { flushRecords: 8 });
    opened.push(writer);
    expect(keyCounts(writer, "topic")).toEqual({ chunks: 10, values: { even: 5, odd: 5 } });
    await writer.deleteDocuments(["doc0", "doc1", "doc2"]);
    await writer.upsert([...documents(3, "extra"), ...documents(1, "doc", 2)]);
    // 10 - 3 deleted + 3 extra; doc0 upserted again (even).
    const expected = { chunks: 11, values: { even: 6, odd: 5 } };
    expect(keyCounts(writer, "topic")).toEqual(expected);
    expect(writer.stats()).toMatchObject({ chunks: 11, documents: 11 });
    expect(readdirSync(directory).filter((name) => name.endsWith(".keys.bin"))).toHaveLength(1);
    await writer.commit();
    expect(keyCounts(writer, "topic")).toEqual(expected);
    const manifest = readManifest(directory) as SegmentedManifest;
    expect(manifest).toMatchObject({ formatVersion: 7, chunks: 11, documents: 11 });
    expect(manifest.segments).toHaveLength(1);
    const reader = await open();
    expect(keyCounts(reader, "topic")).toEqual(expected);
    expect((await reader.search({ query: "alpha", topK: 20 })).map((hit) => hit.id).sort()).toEqual(
      [
        "doc0#chunk-0",
        ...documents(10)
          .slice(3)
          .map((record) => record.id),
        ...documents(3, "extra").map((record) => record.id),
      ].sort(),
    );
  });

  it("issue 36 item 8: a reader that opened a format-6 index and refreshed to the upgraded one counts from the new commit, reading no closed file", async () => {
    await (await build(documents(10))).close();
    rewriteAsFormat6(directory);
    const reader = await open({ refreshIntervalMs: 0 });
    const writer = await open({ mode: "write" });
    await writer.upsert(documents(3, "extra"));
    await writer.commit();
    await reader.search({ query: "alpha", topK: 3 });
    expect(reader.stats().chunks).toBe(13);
    expect(keyCounts(reader, "topic")).toEqual({ chunks: 13, values: { even: 7, odd: 6 } });
  });
});

describe("issue 36 item 2: a commit that fails once its manifest switched leaves the writer matching that manifest", () => {
  it("issue 36 item 2: metadata key counts and files stay right after a failure past the manifest switch", async () => {
    let failOnce = false;
    const writer = await openLocalSearchPortWithHooks(
      { directory, mode: "write", minScore: 0 },
      {
        afterManifest: () => {
          if (!failOnce) return;
          failOnce = false;
          throw new Error("failed after the switch");
        },
      },
    );
    opened.push(writer);
    await writer.upsert(documents(12));
    await writer.commit();
    await writer.deleteDocuments(["doc1"]);
    await writer.upsert(documents(3, "extra"));
    failOnce = true;
    await expect(writer.commit()).rejects.toThrow(/failed after the switch/);
    expect(readManifest(directory)?.chunks).toBe(14);
    await writer.deleteDocuments(["doc2"]);
    await writer.commit();
    await writer.upsert(documents(1, "late"));
    await writer.commit();
    // doc0..doc11 less doc1 and doc2, extra0..extra2, late0: 14 chunks, 8 of them even.
    const expected = { chunks: 14, values: { even: 8, odd: 6 } };
    expect(keyCounts(writer, "topic")).toEqual(expected);
    const reader = await open();
    expect(keyCounts(reader, "topic")).toEqual(expected);
    expect(reader.stats()).toMatchObject({ chunks: 14, documents: 14 });
    const listed = new Set(storedFileEntries(readManifest(directory) as SegmentedManifest).map((entry) => entry.name));
    expect(
      readdirSync(directory).filter((name) => /\.(bin|txt|json)$/.test(name) && name !== "manifest.json" && !listed.has(name)),
    ).toEqual([]);
  });
});

describe("issue 36 item 8: an index upgraded from format 6 keeps its embedder as a format-7 index does", () => {
  for (const fromFormat6 of [false, true]) {
    it(`issue 36 item 8: every record deleted${fromFormat6 ? " by the commit that upgrades a format-6 index" : ""}, the embedder stays recorded`, async () => {
      const embeddings = hashEmbeddings();
      await (await build(documents(6), { embeddings })).close();
      if (fromFormat6) rewriteAsFormat6(directory);
      const writer = await open({ mode: "write", embeddings });
      await writer.deleteDocuments(documents(6).map((record) => record.metadata["docId"] as string));
      await writer.commit();
      expect(readManifest(directory)).toMatchObject({ formatVersion: 7, chunks: 0, embedder: embeddings.identity });
    });
  }
});

describe("issue 36 item 8: a reader's metadataKeys after a writer committed", () => {
  it("issue 36 item 8: counts from the newer commit when the one it serves lost its counts file, not calling the index corrupt", async () => {
    const writer = await build(documents(4));
    const reader = await open({ refreshIntervalMs: 60_000 });
    expect(keyCounts(reader, "topic").chunks).toBe(4);
    await writer.upsert(documents(3, "extra"));
    await writer.commit();
    expect(keyCounts(reader, "topic")).toEqual({ chunks: 7, values: { even: 4, odd: 3 } });
    expect(reader.stats().chunks).toBe(7);
  });
});

describe("issue 36 item 2: descriptors after a commit that failed past its manifest switch", () => {
  // Descriptors are counted in /proc (Linux).
  it.skipIf(!existsSync("/proc/self/fd"))(
    "issue 36 item 2: a segment the commit dropped for having no live record is closed, so closing the writer leaves no descriptor open",
    async () => {
      const openDescriptors = () => readdirSync("/proc/self/fd").length;
      const before = openDescriptors();
      let failOnce = false;
      const writer = await openLocalSearchPortWithHooks(
        { directory, mode: "write", minScore: 0 },
        {
          afterManifest: () => {
            if (!failOnce) return;
            failOnce = false;
            throw new Error("failed after the switch");
          },
        },
      );
      await writer.upsert(documents(4));
      await writer.commit();
      await writer.upsert(documents(2, "extra"));
      await writer.commit();
      await writer.deleteDocuments(documents(4).map((record) => record.metadata["docId"] as string));
      failOnce = true;
      await expect(writer.commit()).rejects.toThrow(/failed after the switch/);
      expect((readManifest(directory) as SegmentedManifest).segments).toHaveLength(1);
      await writer.close();
      expect(openDescriptors()).toBe(before);
    },
  );
});
