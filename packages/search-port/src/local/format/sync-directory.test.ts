import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { syncDirectory } from "./sync-directory.js";

/** The code the next folder open or fsync fails with (undefined: it succeeds). */
const failing: { open?: string | undefined; sync?: string | undefined } = {};
const calls = { open: 0, sync: 0, close: 0 };

vi.mock("node:fs", async (original) => {
  const actual = await original<typeof import("node:fs")>();
  const fail = (code: string) => Object.assign(new Error(`${code}: simulated`), { code });
  return {
    ...actual,
    openSync: (...args: Parameters<typeof actual.openSync>) => {
      calls.open += 1;
      if (failing.open !== undefined) throw fail(failing.open);
      return actual.openSync(...args);
    },
    fsyncSync: (descriptor: number) => {
      calls.sync += 1;
      if (failing.sync !== undefined) throw fail(failing.sync);
      actual.fsyncSync(descriptor);
    },
    closeSync: (descriptor: number) => {
      calls.close += 1;
      actual.closeSync(descriptor);
    },
  };
});

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "sync-directory-"));
  failing.open = undefined;
  failing.sync = undefined;
  Object.assign(calls, { open: 0, sync: 0, close: 0 });
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe("syncDirectory (issue 36 item 4 review: a folder sync's failures are not all swallowed)", () => {
  it("syncs the folder and closes it", () => {
    syncDirectory(directory);
    expect(calls).toEqual({ open: 1, sync: 1, close: 1 });
  });

  it.each([
    ["open", "EISDIR"],
    ["open", "EPERM"],
    ["sync", "EPERM"],
    ["sync", "EINVAL"],
    ["sync", "ENOTSUP"],
  ] as const)("ignores a folder %s failing with %s (the platform cannot sync a folder)", (step, code) => {
    failing[step] = code;
    expect(() => syncDirectory(directory)).not.toThrow();
    expect(calls.close).toBe(calls.open - (step === "open" ? 1 : 0));
  });

  it.each([
    ["open", "EIO"],
    ["open", "ENOENT"],
    ["sync", "EIO"],
    ["sync", "ENOSPC"],
  ] as const)("throws a folder %s failing with %s, and closes what it opened", (step, code) => {
    failing[step] = code;
    expect(() => syncDirectory(directory)).toThrow(code);
    expect(calls.close).toBe(step === "open" ? 0 : 1);
  });
});
