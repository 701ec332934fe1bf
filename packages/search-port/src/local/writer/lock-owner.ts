import { closeSync, constants, fstatSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/** The file inside the lock folder that names the process holding it. */
export const lockOwnerFileName = "owner.json";

/** Who holds a write lock: the process id and host name of the writer that made the lock folder. */
export interface LockOwner {
  pid: number;
  hostname: string;
  acquiredAt: string;
}

/** Records this process as the holder of the lock folder `lockPath` (which it has just made). */
export function writeLockOwner(lockPath: string): void {
  const owner: LockOwner = { pid: process.pid, hostname: hostname(), acquiredAt: new Date().toISOString() };
  writeFileSync(join(lockPath, lockOwnerFileName), `${JSON.stringify(owner)}\n`, { flag: "wx" });
}

/** The most bytes an owner file is read for: one this process writes is under 200; a longer one is not a lock's. */
const ownerFileBytes = 4096;
/** Non-blocking, so a FIFO put in the owner file's place is not waited on (0 where the platform has no such flag). */
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The holder recorded in the lock folder `lockPath`, or undefined when there is none or it
 * cannot be read (a lock of an earlier release, or one whose holder has not written it yet).
 * Only a regular file of at most `ownerFileBytes` is read: anything else in its place (a FIFO,
 * a device, a file of gigabytes) names no holder, and is neither waited on nor read whole.
 */
export function readLockOwner(lockPath: string): LockOwner | undefined {
  const text = readOwnerFile(join(lockPath, lockOwnerFileName));
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  return lockOwnerOf(json);
}

function readOwnerFile(path: string): string | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, openFlags);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(descriptor).isFile()) return undefined;
    const bytes = Buffer.alloc(ownerFileBytes + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < bytes.length; length += read)
      read = readSync(descriptor, bytes, length, bytes.length - length, null);
    return length > ownerFileBytes ? undefined : bytes.toString("utf8", 0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * The three fields of a parsed owner file, or undefined when one is missing or of the wrong
 * kind (other keys are left out). Plain checks, not a schema: every writer's open reads its
 * lock, and loading zod for it was a cost of every CLI ingest (issue 36 item 6).
 */
export function lockOwnerOf(json: unknown): LockOwner | undefined {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return undefined;
  const { pid, hostname, acquiredAt } = json as Record<string, unknown>;
  if (!Number.isSafeInteger(pid) || (pid as number) <= 0 || typeof hostname !== "string" || typeof acquiredAt !== "string")
    return undefined;
  return { pid: pid as number, hostname, acquiredAt };
}

/** Removes the owner file of the lock folder `lockPath`, so the folder itself can be removed (`rmdir`). */
export function removeLockOwner(lockPath: string): void {
  rmSync(join(lockPath, lockOwnerFileName), { force: true });
}

/**
 * Whether the holder is certainly gone: it ran on this host and no process has its id
 * (`process.kill(pid, 0)` fails with `ESRCH`). A holder on another host, or one whose id
 * is in use (alive, or reused by another process), is not known to be gone.
 */
export function isLockOwnerGone(owner: LockOwner): boolean {
  if (owner.hostname !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ESRCH";
  }
}

/** How an error message names a holder. */
export function describeLockOwner(owner: LockOwner): string {
  return `process ${owner.pid} on host ${owner.hostname} (since ${owner.acquiredAt})`;
}
