import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { syncFiles, syncFilesAtOnce } from "./sync-files.js";

/** Handles open now and at most at once, every file synced, and names whose sync fails (EIO). */
const seen = { open: 0, most: 0, synced: [] as string[], failing: new Set<string>() };

vi.mock("node:fs/promises", async (original) => {
  const actual = await original<typeof import("node:fs/promises")>();
  return {
    ...actual,
    open: async (path: string, flags: string) => {
      const handle = await actual.open(path, flags);
      seen.open += 1;
      seen.most = Math.max(seen.most, seen.open);
      return {
        sync: async () => {
          // Slow syncs, so that every sync allowed at once is under way together.
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (seen.failing.has(path)) throw Object.assign(new Error(`EIO: i/o error, fsync '${path}'`), { code: "EIO" });
          seen.synced.push(path);
          await handle.sync();
        },
        close: async () => {
          seen.open -= 1;
          await handle.close();
        },
      };
    },
  };
});

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "sync-files-"));
  Object.assign(seen, { open: 0, most: 0, synced: [], failing: new Set() });
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const files = (count: number) =>
  Array.from({ length: count }, (_, index) => {
    const name = `file-${index}`;
    writeFileSync(join(directory, name), `bytes ${index}`);
    return name;
  });

describe("syncFiles (issue 36 item 4 review: a commit's syncs keep few files open)", () => {
  it(`syncs every file once with at most ${syncFilesAtOnce} open at a time`, async () => {
    const names = files(60);
    await syncFiles(directory, names);
    expect([...seen.synced].sort()).toEqual(names.map((name) => join(directory, name)).sort());
    expect(seen.most).toBe(syncFilesAtOnce);
    expect(seen.open).toBe(0);
  });

  it("throws the first failure, naming the file, closes every handle, and starts no sync after it", async () => {
    const names = files(60);
    seen.failing.add(join(directory, "file-3"));
    await expect(syncFiles(directory, names)).rejects.toThrow(/EIO: i\/o error, fsync '.*file-3'/);
    expect(seen.open).toBe(0);
    expect(seen.synced.length).toBeLessThan(names.length - 1);
  });

  it("throws for a file that is missing (ENOENT), naming it", async () => {
    await expect(syncFiles(directory, ["missing-file"])).rejects.toThrow(/missing-file/);
  });
});
