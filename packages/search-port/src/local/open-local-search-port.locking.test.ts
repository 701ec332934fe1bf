import { readManifest } from "./format/read-manifest.js";
import { storedFileEntries } from "./format/segmented-manifest.js";
import type { StoredManifest } from "./format/segmented-manifest.js";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IndexLockedError } from "./errors/index-locked-error.js";
import { openLocalSearchPort } from "./open-local-search-port.js";
import { records, directory, useIndexFolder, open, build, ids } from "./test/local-port-test-fixtures.js";

useIndexFolder();

describe("openLocalSearchPort: locking", () => {
  it("refuses a second writer with IndexLockedError naming the folder; readers still open; after close a writer can open", async () => {
    const writer = await build();
    const error = await openLocalSearchPort({ directory, mode: "write" }).catch((caught: unknown) => caught);
    expect(IndexLockedError.isInstance(error)).toBe(true);
    expect((error as IndexLockedError).code).toBe("index_locked");
    expect((error as Error).message).toContain(directory);
    expect((error as Error).message).toMatch(/another process is writing/);
    const reader = await open();
    expect(reader.stats().chunks).toBe(records.length);
    await writer.close();
    const second = await open({ mode: "write" });
    await second.deleteDocuments(["refunds"]);
    await second.commit();
    expect(second.stats().chunks).toBe(records.length - 2);
  });
  const lockPath = () => join(directory, "write.lock");
  /** Makes the lock look stale, as a writer that stopped refreshing it for a minute. */
  const backdateLock = () => {
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lockPath(), longAgo, longAgo);
  };
  const dataFiles = () =>
    readdirSync(directory)
      .filter((name) => name !== "manifest.json" && name !== "write.lock")
      .sort();
  const manifestFiles = () =>
    storedFileEntries(readManifest(directory) as StoredManifest)
      .map((entry) => entry.name)
      .sort();
  const lostLock = (pattern: RegExp) => (error: unknown) =>
    IndexLockedError.isInstance(error) && /lock of the index .* was lost/.test(error.message) && pattern.test(error.message);

  it("refuses the commit of a writer whose stale lock was taken over by a writer that committed, and keeps that commit intact", async () => {
    const first = await build(records.slice(0, 2));
    backdateLock();
    const second = await open({ mode: "write" });
    await second.upsert(records.slice(2, 4));
    await second.commit();
    const committed = readFileSync(join(directory, "manifest.json"), "utf8");

    await first.upsert(records.slice(4));
    await expect(first.commit()).rejects.toSatisfy(lostLock(/another writer/));
    // The second writer's manifest and files are untouched; the first one removed only its own files.
    expect(readFileSync(join(directory, "manifest.json"), "utf8")).toBe(committed);
    expect(dataFiles()).toEqual(manifestFiles());
    const reader = await open();
    expect(reader.stats().chunks).toBe(4);
    expect(ids(await reader.search({ query: "reset forgotten password", topK: 1 }))).toEqual(["passwords#chunk-0"]);

    await expect(first.upsert(records)).rejects.toSatisfy((error: unknown) => IndexLockedError.isInstance(error));
    await first.close();
    expect(existsSync(lockPath())).toBe(true);
    await second.deleteDocuments(["shipping"]);
    await second.commit();
    expect((await open()).stats().chunks).toBe(3);
  });

  it("refuses the commit of a writer whose lock was taken over before the new holder committed", async () => {
    const first = await build(records.slice(0, 2));
    backdateLock();
    const second = await open({ mode: "write" });
    await first.upsert(records.slice(2));
    await expect(first.commit()).rejects.toSatisfy(lostLock(/another writer took write\.lock over/));
    expect(dataFiles()).toEqual(manifestFiles());
    await second.upsert(records.slice(2, 3));
    await second.commit();
    expect((await open()).stats().chunks).toBe(3);
  });

  it("refuses to commit once its lock is stale, before anyone takes it over", async () => {
    const writer = await build(records.slice(0, 2));
    backdateLock();
    await writer.upsert(records.slice(2));
    await expect(writer.commit()).rejects.toSatisfy(lostLock(/stale/));
    expect((await open()).stats().chunks).toBe(2);
  });

  it("refuses to switch the manifest when another writer committed since this writer last read it", async () => {
    const writer = await build(records.slice(0, 2));
    const elsewhere = mkdtempSync(join(tmpdir(), "local-port-other-"));
    try {
      const other = await openLocalSearchPort({ directory: elsewhere, mode: "write" });
      await other.upsert(records.slice(3, 5));
      await other.commit();
      await other.close();
      // What a writer that took over the folder would have committed.
      for (const name of readdirSync(elsewhere)) if (name !== "write.lock") cpSync(join(elsewhere, name), join(directory, name));
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    const committed = readFileSync(join(directory, "manifest.json"), "utf8");
    const before = dataFiles();
    await writer.upsert(records.slice(5));
    await expect(writer.commit()).rejects.toSatisfy(lostLock(/another writer committed/));
    expect(readFileSync(join(directory, "manifest.json"), "utf8")).toBe(committed);
    expect(dataFiles()).toEqual(before);
    expect(ids(await (await open()).search({ query: "reset forgotten password", topK: 1 }))).toEqual(["passwords#chunk-0"]);
    await expect(writer.upsert(records)).rejects.toSatisfy(lostLock(/another writer committed/));
  });

  it("removes unreferenced files only when this writer made them or they are older than the lock's stale time", async () => {
    await (await build(records.slice(0, 2))).close();
    // A writer that lost the lock may still be writing a file like the first; the second was abandoned long ago.
    const recent = join(directory, "00000002.content.txt");
    const abandoned = join(directory, "00000003.content.txt");
    writeFileSync(recent, "in progress");
    writeFileSync(abandoned, "left by a crash");
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(abandoned, longAgo, longAgo);
    const writer = await open({ mode: "write" });
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(abandoned)).toBe(false);
    await writer.upsert(records.slice(2));
    await writer.commit();
    expect(existsSync(recent)).toBe(true);
    expect(dataFiles()).toEqual([...manifestFiles(), "00000002.content.txt"].sort());
  });
});
