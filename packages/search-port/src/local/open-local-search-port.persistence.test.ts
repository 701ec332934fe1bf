import { readManifest } from "./format/read-manifest.js";
import type { SegmentedManifest } from "./format/segmented-manifest.js";
import { storedFileEntries } from "./format/segmented-manifest.js";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { CorruptIndexError } from "./errors/corrupt-index-error.js";
import { IndexNotFoundError } from "./errors/index-not-found-error.js";
import { openLocalSearchPort, openLocalSearchPortWithHooks } from "./open-local-search-port.js";
import { rewriteAsFormat3 } from "./test/rewrite-as-format-3.js";
import { hashEmbeddings, records, directory, opened, useIndexFolder, open, build, ids } from "./test/local-port-test-fixtures.js";

useIndexFolder();

describe("openLocalSearchPort: persistence", () => {
  it("round-trips records, metadata, scores and stats through the folder", async () => {
    const unusual: KnowledgeRecord = {
      id: "odd id\nwith newline #chunk-0",
      content: 'Line one\nline two with "quotes", emoji 🚀 and a comma, at the end,',
      metadata: { docId: "odd", chunkIndex: 0, nested: { deep: [1, "two", null] }, title: "Rocket manual" },
    };
    const writer = await build([...records, unusual], { embeddings: hashEmbeddings() });
    const queries = ["refund card", "rocket emoji quotes", "限流", "password reset email"];
    const before = await Promise.all(queries.map((query) => writer.search({ query, topK: 4 })));
    const statsBefore = writer.stats();
    await writer.close();
    const reader = await open({ embeddings: hashEmbeddings() });
    const after = await Promise.all(queries.map((query) => reader.search({ query, topK: 4 })));
    expect(after).toEqual(before);
    expect(after[1]?.[0]).toEqual({
      id: unusual.id,
      content: unusual.content,
      metadata: unusual.metadata,
      score: expect.any(Number),
      answerability: expect.objectContaining({ score: expect.any(Number) }),
    });
    expect(reader.stats()).toEqual(statsBefore);
    expect(statsBefore).toMatchObject({ chunks: 7, documents: 6, embedder: { id: "test/hash", version: "1", dimension: 32 } });
    expect(statsBefore.bytesOnDisk).toBeGreaterThan(1000);
    const files = readdirSync(directory).sort();
    expect(files).toContain("manifest.json");
    // keys, terms, postings, offsets, content, metadata, vectors, bounds, the metadata key counts (facets) and the block checksums.
    expect(files.filter((name) => /^00000001-[0-9a-f]{16}\./.test(name))).toHaveLength(10);
  });

  it("issue 36 item 1: keeps only the files the last commit lists; a commit writes a segment of what it adds, earlier segments stay", async () => {
    const writer = await build();
    const first = readManifest(directory) as SegmentedManifest;
    await writer.upsert([{ id: "more", content: "more text", metadata: {} }]);
    await writer.commit();
    const manifest = readManifest(directory) as SegmentedManifest;
    const listed = storedFileEntries(manifest).map((entry) => entry.name);
    expect(
      readdirSync(directory)
        .filter((name) => /^\d{8}-/.test(name))
        .sort(),
    ).toEqual([...listed].sort());
    expect(manifest.segments.map((segment) => segment.chunks)).toEqual([records.length, 1]);
    // The first commit's segment is listed as it was written: not one of its bytes rewritten.
    expect(manifest.segments[0]?.files).toEqual(first.segments[0]?.files);
    expect(manifest.files.facets.name.startsWith("00000002-")).toBe(true);
  });

  it("lets a reader keep searching the generation it opened after a writer commits and removes its files", async () => {
    const writer = await build();
    // Until it next looks for a newer commit (an hour away here).
    const reader = await open({ refreshIntervalMs: 3_600_000 });
    await writer.deleteDocuments(["refunds"]);
    await writer.commit();
    const [hit] = await reader.search({ query: "refund card", topK: 1 });
    expect(hit).toMatchObject({ id: "refunds#chunk-0", content: records[0]?.content });
    const fresh = await open();
    expect(await fresh.search({ query: "refund card", topK: 1 })).toEqual([]);
  });

  it("leaves the last good index when a commit crashes between the data files and the manifest", async () => {
    const first = await build(records.slice(0, 3));
    await first.close();
    const aside = mkdtempSync(join(tmpdir(), "local-port-crash-"));
    try {
      const writer = await openLocalSearchPortWithHooks(
        { directory, mode: "write" },
        {
          afterDataFiles: (generation) => {
            // The new generation is fully written; keep a copy as the dead process would have left it.
            for (const name of readdirSync(directory))
              if (name.startsWith(String(generation).padStart(8, "0"))) cpSync(join(directory, name), join(aside, name));
            throw new Error("simulated crash");
          },
        },
      );
      opened.push(writer);
      await writer.deleteDocuments(["refunds"]);
      await writer.upsert(records.slice(3));
      await expect(writer.commit()).rejects.toThrow("simulated crash");
      await writer.close();
      // What a killed process leaves behind: the new data files, the old manifest. Its
      // lock went stale before another writer could open, so its files are older than that.
      const longAgo = new Date(Date.now() - 60_000);
      for (const name of readdirSync(aside)) {
        cpSync(join(aside, name), join(directory, name));
        utimesSync(join(directory, name), longAgo, longAgo);
      }
      expect(readdirSync(directory).some((name) => name.startsWith("00000002-"))).toBe(true);

      const reader = await open();
      expect(reader.stats().chunks).toBe(3);
      expect(ids(await reader.search({ query: "refund card", topK: 1 }))).toEqual(["refunds#chunk-0"]);
      expect(await reader.search({ query: "password", topK: 1 })).toEqual([]);

      // The next writer clears the leftovers and commits as generation 2.
      const next = await open({ mode: "write" });
      expect(readdirSync(directory).some((name) => name.startsWith("00000002-"))).toBe(false);
      await next.upsert(records.slice(3));
      await next.commit();
      expect(next.stats().chunks).toBe(records.length);
    } finally {
      rmSync(aside, { recursive: true, force: true });
    }
  });

  it("throws CorruptIndexError naming the folder and file when a data file was changed", async () => {
    const writer = await build();
    await writer.close();
    const postings = readdirSync(directory).find((name) => name.endsWith(".postings.bin")) as string;
    const bytes = readFileSync(join(directory, postings));
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    writeFileSync(join(directory, postings), bytes);
    const error = await openLocalSearchPort({ directory }).catch((caught: unknown) => caught);
    expect(CorruptIndexError.isInstance(error)).toBe(true);
    expect((error as CorruptIndexError).code).toBe("corrupt_index");
    expect((error as Error).message).toContain(directory);
    expect((error as Error).message).toContain(postings);
  });

  it("throws CorruptIndexError for a malformed manifest or a missing data file", async () => {
    const writer = await build();
    await writer.close();
    const content = readdirSync(directory).find((name) => name.endsWith(".content.txt")) as string;
    rmSync(join(directory, content));
    await expect(openLocalSearchPort({ directory })).rejects.toThrow(new RegExp(`${content}.*is missing`));
    writeFileSync(join(directory, "manifest.json"), "{ not json");
    await expect(openLocalSearchPort({ directory })).rejects.toSatisfy((error: unknown) => CorruptIndexError.isInstance(error));
  });

  it("issue 33: refuses a manifest changed after it was written (a digit of a statistic), and still reads one written before manifests had a checksum", async () => {
    await (await build()).close();
    const path = join(directory, "manifest.json");
    const written = readFileSync(path, "utf8");
    const manifest = JSON.parse(written) as { totalLength: number; checksum?: string };
    expect(manifest.checksum).toMatch(/^[0-9a-f]{64}$/);
    // Still valid JSON and valid by the schema: only the checksum tells.
    writeFileSync(
      path,
      written.replace(/"totalLength": (\d+)/, (_, digits: string) => `"totalLength": ${Number(digits) + 1}`),
    );
    const error = await openLocalSearchPort({ directory }).catch((caught: unknown) => caught);
    expect(CorruptIndexError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/manifest\.json does not match its checksum/);
    // A manifest without a checksum (written by an earlier version) is read as it is.
    delete manifest.checksum;
    writeFileSync(path, JSON.stringify(manifest));
    expect(ids(await (await open()).search({ query: "refund card", topK: 1 }))).toEqual(["refunds#chunk-0"]);
  });

  it("throws IndexNotFoundError for a reader of a folder without an index", async () => {
    const missing = join(directory, "nothing-here");
    const error = await openLocalSearchPort({ directory: missing }).catch((caught: unknown) => caught);
    expect(IndexNotFoundError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(missing);
    expect(existsSync(missing)).toBe(false);
  });
  it("throws CorruptIndexError naming the folder and file when a content file is truncated after it was opened", async () => {
    await (await build()).close();
    const reader = await open();
    const content = readdirSync(directory).find((name) => name.endsWith(".content.txt")) as string;
    truncateSync(join(directory, content), 0);
    const error = await reader.search({ query: "refund card", topK: 1 }).catch((caught: unknown) => caught);
    expect(CorruptIndexError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(directory);
    expect((error as Error).message).toContain(content);
  });

  it.skipIf(process.platform !== "linux")("closes every file it opened when a commit cannot open the files it just wrote", async () => {
    const openFiles = () => readdirSync("/proc/self/fd").length;
    const writer = await openLocalSearchPortWithHooks(
      { directory, mode: "write" },
      {
        afterManifest: (manifest) =>
          rmSync(join(directory, (manifest as SegmentedManifest).segments.at(-1)?.files.metadata.name as string)),
      },
    );
    opened.push(writer);
    await writer.upsert(records);
    const before = openFiles();
    await expect(writer.commit()).rejects.toSatisfy((error: unknown) => CorruptIndexError.isInstance(error));
    expect(openFiles()).toBe(before);
  });
  it("reads and continues an index of format version 1 (data files named by generation alone, keys as JSON, whole-file checksums)", async () => {
    await (await build(records.slice(0, 3))).close();
    rewriteAsFormat3(directory);
    const path = join(directory, "manifest.json");
    const manifest = JSON.parse(readFileSync(path, "utf8")) as {
      formatVersion: number;
      id?: string;
      files: Record<string, { name: string }>;
    };
    for (const entry of Object.values(manifest.files)) {
      const old = entry.name.replace(/-[0-9a-f]{16}\./, ".");
      renameSync(join(directory, entry.name), join(directory, old));
      entry.name = old;
    }
    delete manifest.id;
    manifest.formatVersion = 1;
    writeFileSync(path, JSON.stringify(manifest));
    expect(ids(await (await open()).search({ query: "refund card", topK: 1 }))).toEqual(["refunds#chunk-0"]);
    const writer = await open({ mode: "write" });
    await writer.upsert(records.slice(3));
    await writer.commit();
    const next = JSON.parse(readFileSync(path, "utf8")) as { formatVersion: number; generation: number; id: string };
    expect(next).toMatchObject({ formatVersion: 7, generation: 2, id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(readdirSync(directory).filter((name) => /^\d{8}\./.test(name))).toEqual([]);
    expect((await open()).stats().chunks).toBe(records.length);
  });
});
