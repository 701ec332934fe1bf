import { readdirSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readManifest } from "./format/read-manifest.js";
import type { SegmentedManifest } from "./format/segmented-manifest.js";
import { storedFileEntries } from "./format/segmented-manifest.js";
import { openLocalSearchPort } from "./open-local-search-port.js";
import { directory, useIndexFolder } from "./test/local-port-test-fixtures.js";

useIndexFolder();
afterEach(() => {
  vi.restoreAllMocks();
});

/** Records whose content file passes 4 MB: its writer writes full 1 MB buffers while it fills the next. */
const bigChunks = (version: number) =>
  Array.from({ length: 40 }, (_, index) => ({
    id: `doc${index}#chunk-0`,
    content: `topic${index % 5} version${version} ${"filler words of a long chunk ".repeat(4000)}`,
    metadata: { docId: `doc${index}`, chunkIndex: 0 },
  }));

/** The prototype of Node's FileHandle (not exported), whose `write` every data file's writes go through. */
async function fileHandlePrototype(): Promise<{ write: (...args: unknown[]) => Promise<unknown> }> {
  const handle = await open(join(directory, "probe"), "w");
  await handle.close();
  rmSync(join(directory, "probe"));
  return Object.getPrototypeOf(handle);
}

describe("issue 36 item 4 review: a data file's write that fails while the next buffer fills", () => {
  it("fails the commit with its error (not lost, not unhandled), removes the commit's files, leaves the previous commit, and the writer commits once the disk has room", async () => {
    const writer = await openLocalSearchPort({ directory, mode: "write" });
    try {
      await writer.upsert(bigChunks(0).slice(0, 2));
      await writer.commit();
      const before = readManifest(directory) as SegmentedManifest;
      const files = new Set(readdirSync(directory));
      const prototype = await fileHandlePrototype();
      const write = prototype.write;
      let writes = 0;
      let failed = 0;
      // The third write of a large file fails at once (rejected before anything awaits it); the
      // others are slow, so the next buffer fills meanwhile.
      vi.spyOn(prototype, "write").mockImplementation(async function (this: unknown, ...args: unknown[]) {
        const bytes = (args[0] as Uint8Array).length;
        if (bytes >= 512 * 1024) {
          writes += 1;
          if (writes === 3) {
            failed += 1;
            throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return write.apply(this, args);
      });
      await writer.upsert(bigChunks(1));
      await expect(writer.commit()).rejects.toThrow(/ENOSPC/);
      expect(failed, `${writes} large writes`).toBe(1);
      // Nothing of the failed commit is left, and the manifest is the previous one.
      expect(new Set(readdirSync(directory))).toEqual(files);
      expect((readManifest(directory) as SegmentedManifest).id).toBe(before.id);
      const reader = await openLocalSearchPort({ directory });
      expect(reader.stats().chunks).toBe(2);
      await reader.close();
      vi.restoreAllMocks();
      await writer.commit();
      expect(writer.stats().chunks).toBe(40);
      const after = readManifest(directory) as SegmentedManifest;
      expect(storedFileEntries(after).some((entry) => entry.bytes > 2 * 1024 * 1024)).toBe(true);
    } finally {
      await writer.close();
    }
    const reader = await openLocalSearchPort({ directory });
    const [record] = await reader.fetchRecords(["doc3#chunk-0"]);
    expect(record?.content).toBe(bigChunks(1)[3]?.content);
    await reader.close();
  });
});
