import { join, resolve } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { syncMadeFolders } from "./sync-made-folders.js";

/** The code each folder's sync fails with, by its path (absent: it succeeds). */
const failing = new Map<string, string>();
const synced: string[] = [];

vi.mock("./sync-directory.js", () => ({
  syncDirectory: (directory: string) => {
    const code = failing.get(directory);
    if (code !== undefined) throw Object.assign(new Error(`${code}: simulated, fsync`), { code });
    synced.push(directory);
  },
}));

const root = resolve("/data");
const index = join(root, "kb", "index");

beforeEach(() => {
  failing.clear();
  synced.length = 0;
});

describe("syncMadeFolders (issue 36 item 8: a writer making its folder)", () => {
  it("syncs the parent of each folder mkdir made, the deepest first, and nothing when it made none", () => {
    syncMadeFolders(index, join(root, "kb"));
    expect(synced).toEqual([join(root, "kb"), root]);
    synced.length = 0;
    syncMadeFolders(index, undefined);
    expect(synced).toEqual([]);
  });

  it("skips a parent it may not read (EACCES at the folder's open) and syncs the others", () => {
    failing.set(root, "EACCES");
    expect(() => syncMadeFolders(index, join(root, "kb"))).not.toThrow();
    expect(synced).toEqual([join(root, "kb")]);
  });

  it.each(["EIO", "ENOSPC"])("names the folder made and the parent whose sync failed with %s", (code) => {
    failing.set(join(root, "kb"), code);
    let thrown: unknown;
    try {
      syncMadeFolders(index, join(root, "kb"));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    const error = thrown as Error;
    expect(error.message).toContain(JSON.stringify(index));
    expect(error.message).toContain(`parent ${JSON.stringify(join(root, "kb"))}`);
    expect(error.message).toContain(code);
    expect((error.cause as { code?: string }).code).toBe(code);
    // It stops at the failure: the parent above is not synced after it.
    expect(synced).toEqual([]);
  });

  it("names the index folder, not a folder made above it, when a higher parent's sync fails", () => {
    failing.set(root, "EIO");
    let thrown: unknown;
    try {
      syncMadeFolders(index, join(root, "kb"));
    } catch (error) {
      thrown = error;
    }
    const message = (thrown as Error).message;
    expect(message).toContain(`index folder ${JSON.stringify(index)}`);
    expect(message).toContain(`parent ${JSON.stringify(root)}`);
    expect(message).toContain(`of ${JSON.stringify(join(root, "kb"))}`);
    expect(synced).toEqual([join(root, "kb")]);
  });
});
