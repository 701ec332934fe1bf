import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { manifestFileName } from "./format/index-manifest.js";
import { readManifest } from "./format/read-manifest.js";
import { storedFileEntries } from "./format/segmented-manifest.js";
import type { SegmentedManifest } from "./format/segmented-manifest.js";
import { openLocalSearchPort, openLocalSearchPortWithHooks } from "./open-local-search-port.js";
import { hashEmbeddings } from "./test/local-port-test-fixtures.js";

/** What the commit made durable, in order: each file synced, the folder, each file written and synced whole (the manifest). */
const events: string[] = [];
/** Names whose sync fails (EIO) the next time a commit syncs them, once each. */
const failingSyncs = new Set<string>();
/** Every folder synced, in order. */
const foldersSynced: string[] = [];
/** The folder syncs to come that fail (EIO), by their number from now: 1 is the next. */
const failingFolderSyncs = new Set<number>();
let folderSyncsFromNow = 0;

vi.mock("./format/sync-files.js", async (original) => {
  const actual = await original<typeof import("./format/sync-files.js")>();
  return {
    syncFiles: async (directory: string, names: readonly string[]) => {
      const failing = names.find((name) => failingSyncs.delete(name));
      await actual.syncFiles(directory, names);
      if (failing !== undefined) throw Object.assign(new Error(`EIO: i/o error, fsync '${failing}'`), { code: "EIO" });
      for (const name of names) events.push(`sync ${name}`);
    },
  };
});
vi.mock("./format/sync-directory.js", async (original) => {
  const actual = await original<typeof import("./format/sync-directory.js")>();
  return {
    syncDirectory: (directory: string) => {
      folderSyncsFromNow += 1;
      if (failingFolderSyncs.delete(folderSyncsFromNow)) throw Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" });
      actual.syncDirectory(directory);
      events.push("sync folder");
      foldersSynced.push(directory);
    },
  };
});
vi.mock("./format/write-new-file-sync.js", async (original) => {
  const actual = await original<typeof import("./format/write-new-file-sync.js")>();
  return {
    writeNewFileSync: (directory: string, name: string, text: string, created: string[]) => {
      actual.writeNewFileSync(directory, name, text, created);
      events.push(`write ${name}`);
    },
  };
});

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "local-port-sync-"));
  events.length = 0;
  failingSyncs.clear();
  foldersSynced.length = 0;
  failingFolderSyncs.clear();
  folderSyncsFromNow = 0;
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const chunksOf = (index: number, version: number) =>
  [0, 1].map((chunk) => ({
    id: `doc${index}#chunk-${chunk}`,
    content: `topic${index % 7} word${(index * 13 + chunk) % 29} version${version} shared text`,
    metadata: { docId: `doc${index}`, chunkIndex: chunk },
  }));

/** The events of one commit: the names synced before the manifest was written, and whether the folder was synced between. */
function commitEvents(): { synced: string[]; folderBeforeManifest: boolean; manifestWritten: boolean } {
  const manifestAt = events.findIndex((event) => event.startsWith("write manifest"));
  const before = manifestAt < 0 ? events : events.slice(0, manifestAt);
  const lastSync = before.findLastIndex((event) => event.startsWith("sync ") && event !== "sync folder");
  return {
    synced: before.filter((event) => event.startsWith("sync ") && event !== "sync folder").map((event) => event.slice(5)),
    folderBeforeManifest: before.slice(lastSync + 1).includes("sync folder"),
    manifestWritten: manifestAt >= 0,
  };
}

describe("issue 36 item 4: a commit syncs each file its manifest adds, once, before the manifest", () => {
  it("syncs exactly the files the new manifest lists and the last did not (not the flushed segments merged away), then the folder, then writes the manifest", async () => {
    const writer = await openLocalSearchPortWithHooks(
      { directory, mode: "write", embeddings: hashEmbeddings() },
      { flushRecords: 8, mergePolicy: { segmentsPerLevel: 3, floorRecords: 2, maxMergedRecords: 1e9, deletedShare: 0.3 } },
    );
    // Every fsync of a file handle (a data file's writer or `syncFiles`), whatever calls it.
    const probe = await open(join(directory, "probe"), "w");
    await probe.close();
    rmSync(join(directory, "probe"));
    const handles = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
    const handleSyncs = vi.spyOn(handles, "sync");
    try {
      for (let index = 0; index < 40; index += 1) await writer.upsert(chunksOf(index, 0));
      // Flushed: files written, none synced, no manifest.
      const flushed = readdirSync(directory).filter((name) => name.startsWith("00000001-"));
      expect(flushed.length).toBeGreaterThan(0);
      expect(events).toEqual([]);
      expect(handleSyncs).not.toHaveBeenCalled();
      await writer.commit();
      const first = readManifest(directory) as SegmentedManifest;
      const firstFiles = storedFileEntries(first).map((entry) => entry.name);
      let commit = commitEvents();
      expect(commit.manifestWritten).toBe(true);
      expect([...commit.synced].sort()).toEqual([...firstFiles].sort());
      expect(commit.folderBeforeManifest).toBe(true);
      // Each file once: by `syncFiles`, not also as its writer finished it.
      expect(handleSyncs).toHaveBeenCalledTimes(firstFiles.length);
      // Merges folded flushed segments together: their files were never synced.
      expect(flushed.filter((name) => !firstFiles.includes(name)).length).toBeGreaterThan(0);

      events.length = 0;
      await writer.upsert(chunksOf(41, 0));
      await writer.deleteDocuments(["doc5"]);
      await writer.commit();
      const second = readManifest(directory) as SegmentedManifest;
      commit = commitEvents();
      const added = storedFileEntries(second)
        .map((entry) => entry.name)
        .filter((name) => !firstFiles.includes(name));
      expect(added.length).toBeGreaterThan(0);
      expect([...commit.synced].sort()).toEqual([...added].sort());
      expect(commit.folderBeforeManifest).toBe(true);
    } finally {
      handleSyncs.mockRestore();
      await writer.close();
    }
    const reader = await openLocalSearchPort({ directory });
    expect(reader.stats().chunks).toBe(80);
    await reader.close();
  });
});

describe("issue 36 item 4 review: a commit whose sync failed", () => {
  it("leaves the previous commit readable, and the writer never commits a flushed file whose sync failed (a second fsync can succeed with the data lost): it refuses to write, a new writer starts from the last commit", async () => {
    const options = { directory, mode: "write" as const, embeddings: hashEmbeddings() };
    const first = await openLocalSearchPort(options);
    for (let index = 0; index < 10; index += 1) await first.upsert(chunksOf(index, 0));
    await first.commit();
    await first.close();
    const committed = storedFileEntries(readManifest(directory) as SegmentedManifest).map((entry) => entry.name);
    const writer = await openLocalSearchPortWithHooks(options, {
      flushRecords: 8,
      mergePolicy: { segmentsPerLevel: 1000, floorRecords: 2, maxMergedRecords: 1e9, deletedShare: 0.99 },
    });
    try {
      for (let index = 10; index < 40; index += 1) await writer.upsert(chunksOf(index, 0));
      const flushed = readdirSync(directory).filter((name) => name.startsWith("00000002-") && !committed.includes(name));
      expect(flushed.length).toBeGreaterThan(0);
      const failed = flushed[0] as string;
      failingSyncs.add(failed);
      await expect(writer.commit()).rejects.toThrow(/EIO/);
      expect(failingSyncs.has(failed)).toBe(false);
      const reader = await openLocalSearchPort({ directory });
      expect(reader.stats().chunks).toBe(20);
      await reader.close();
      // The next commit fsyncs the file again, which succeeds (Linux reports a failed
      // write-back once): its manifest must not name it.
      await expect(writer.commit()).rejects.toThrow(/could not sync its new data files \(EIO/);
      const after = storedFileEntries(readManifest(directory) as SegmentedManifest).map((entry) => entry.name);
      expect(after).not.toContain(failed);
      await expect(writer.upsert(chunksOf(50, 0))).rejects.toThrow(/writes nothing more/);
    } finally {
      await writer.close();
    }
    const next = await openLocalSearchPort(options);
    expect(next.stats().chunks).toBe(20);
    await next.upsert(chunksOf(50, 0));
    await next.commit();
    expect(next.stats().chunks).toBe(22);
    await next.close();
  });
});

describe("issue 36 item 4 review: the first commit into a folder the writer made", () => {
  it("syncs the folders it made in their parents before the manifest, so a crash cannot lose the folder of a commit that returned", async () => {
    const index = join(directory, "made", "index");
    const writer = await openLocalSearchPort({ directory: index, mode: "write" });
    try {
      await writer.upsert(chunksOf(1, 0));
      await writer.commit();
    } finally {
      await writer.close();
    }
    const manifestAt = events.findIndex((event) => event.startsWith("write manifest"));
    expect(manifestAt).toBeGreaterThan(0);
    // The parent of each folder made (the index's own entries: at the commit).
    expect(foldersSynced).toEqual(expect.arrayContaining([directory, join(directory, "made"), index]));
    const folderSyncs = events.slice(0, manifestAt).filter((event) => event === "sync folder").length;
    expect(folderSyncs).toBeGreaterThanOrEqual(3);
  });
});

describe("issue 36 item 4 review: a commit whose folder sync failed (syncDirectory no longer swallows EIO)", () => {
  it.each([
    ["before its manifest: the commit is not made", 1, false],
    ["after its manifest's rename: the commit is made, and said to be at risk", 2, true],
  ] as const)("%s, and the writer writes nothing more", async (_, failing, made) => {
    const options = { directory, mode: "write" as const, embeddings: hashEmbeddings() };
    const first = await openLocalSearchPort(options);
    await first.upsert(chunksOf(1, 0));
    await first.commit();
    await first.close();
    const writer = await openLocalSearchPort(options);
    try {
      await writer.upsert(chunksOf(2, 0));
      folderSyncsFromNow = 0;
      failingFolderSyncs.add(failing);
      await expect(writer.commit()).rejects.toThrow(
        made ? /was made, but the folder could not be synced after it \(EIO/ : /could not sync its new data files \(EIO/,
      );
      await expect(writer.upsert(chunksOf(3, 0))).rejects.toThrow(/writes nothing more/);
    } finally {
      await writer.close();
    }
    const reader = await openLocalSearchPort({ directory });
    expect(reader.stats().chunks).toBe(made ? 4 : 2);
    await reader.close();
  });
});

describe("issue 36 item 4 review: a commit whose folder sync failed after its manifest's rename", () => {
  it("keeps the previous commit's files, so a crash that undoes the rename leaves the previous commit readable", async () => {
    const options = { directory, mode: "write" as const, embeddings: hashEmbeddings() };
    const first = await openLocalSearchPort(options);
    await first.upsert(chunksOf(1, 0));
    await first.commit();
    await first.close();
    const previous = readFileSync(join(directory, manifestFileName));
    const writer = await openLocalSearchPort(options);
    try {
      // doc1 replaced: the previous commit's only segment has no live record and is dropped.
      await writer.upsert(chunksOf(1, 1));
      folderSyncsFromNow = 0;
      failingFolderSyncs.add(2);
      await expect(writer.commit()).rejects.toThrow(/was made, but the folder could not be synced after it/);
    } finally {
      await writer.close();
    }
    // The crash the error warns of: the rename was not on the disk, the previous manifest is back.
    writeFileSync(join(directory, manifestFileName), previous);
    const reader = await openLocalSearchPort({ directory });
    try {
      expect(reader.stats().chunks).toBe(2);
      const hits = await reader.search({ query: "version0", topK: 5 });
      expect(hits.length).toBeGreaterThan(0);
    } finally {
      await reader.close();
    }
  });
});
