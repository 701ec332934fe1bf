import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { lockOwnerFileName, lockOwnerOf, readLockOwner } from "./lock-owner.js";

// The schema the owner file was read with before (issue 36 item 6 replaced it with plain checks).
const formerSchema = z.object({ pid: z.number().int().positive(), hostname: z.string(), acquiredAt: z.string() });

const owner = { pid: 4242, hostname: "build-1", acquiredAt: "2026-12-07T15:00:00.000Z" };
const values: unknown[] = [
  owner,
  { ...owner, extra: true },
  { ...owner, pid: 1 },
  { ...owner, pid: 0 },
  { ...owner, pid: -3 },
  { ...owner, pid: 1.5 },
  { ...owner, pid: Number.MAX_SAFE_INTEGER + 2 },
  { ...owner, pid: Number.NaN },
  { ...owner, pid: "4242" },
  { ...owner, hostname: 7 },
  { ...owner, hostname: "" },
  { ...owner, acquiredAt: null },
  { pid: 4242, hostname: "build-1" },
  {},
  [],
  null,
  "owner",
  42,
];

describe("lockOwnerOf", () => {
  it.each(values)("issue 36 item 6: %o reads as the former schema read it", (value) => {
    const parsed = formerSchema.safeParse(value);
    expect(lockOwnerOf(value)).toEqual(parsed.success ? parsed.data : undefined);
  });
});

describe("readLockOwner", () => {
  const withLock = (fill: (ownerPath: string) => void): ReturnType<typeof readLockOwner> => {
    const folder = mkdtempSync(join(tmpdir(), "lock-owner-"));
    const lockPath = join(folder, "write.lock");
    try {
      mkdirSync(lockPath);
      fill(join(lockPath, lockOwnerFileName));
      return readLockOwner(lockPath);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };

  it("issue 36 item 8 (the lock): reads the holder a writer recorded, and none from a missing, broken or oversized owner file", () => {
    expect(withLock((path) => writeFileSync(path, `${JSON.stringify(owner)}\n`))).toEqual(owner);
    expect(withLock(() => {})).toBeUndefined();
    expect(withLock((path) => writeFileSync(path, "{not json"))).toBeUndefined();
    // A holder padded past what any writer records is not read whole (a lock is not a place for gigabytes).
    const padded = JSON.stringify({ ...owner, hostname: "h".repeat(5_000) });
    expect(withLock((path) => writeFileSync(path, padded))).toBeUndefined();
    expect(withLock((path) => mkdirSync(path))).toBeUndefined();
  });

  it.skipIf(process.platform === "win32")(
    "issue 36 item 8 (the lock): a FIFO in the owner file's place names no holder and is not waited on",
    () => {
      // Opened blocking, a FIFO with no writer would hang the writer's open for ever.
      expect(withLock((path) => execFileSync("mkfifo", [path]))).toBeUndefined();
    },
  );
});
