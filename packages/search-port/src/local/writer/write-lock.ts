import * as fs from "node:fs";
import { statSync } from "node:fs";
import type { BigIntStats } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { IndexLockedError } from "../errors/index-locked-error.js";
import { describeLockOwner, isLockOwnerGone, lockOwnerFileName, readLockOwner, removeLockOwner, writeLockOwner } from "./lock-owner.js";
import type { LockOwner } from "./lock-owner.js";

/** The lock's folder inside the index folder (proper-lockfile creates it with `mkdir`). */
export const lockName = "write.lock";

/** A lock held on an index folder. */
export interface WriteLock {
  /** Set when the lock was lost (its folder was removed, taken over, or could not be refreshed). */
  readonly lost: Error | undefined;
  /**
   * Throws `IndexLockedError` (and marks the lock lost) unless the lock is still this
   * writer's: not reported compromised, its folder still the one this writer created (not
   * removed and re-created by a writer that took it over), and refreshed within the stale
   * time. Synchronous, so a commit can check it immediately before its rename.
   */
  assertHeld(): void;
  /** Releases the lock; does nothing when it was lost (it may be another writer's now). */
  release(): Promise<void>;
}

/** The lock goes stale when its holder has not refreshed it for this long (a crashed writer). */
export const staleMs = 30_000;
/** The holder refreshes the lock's time stamp this often. */
const updateMs = 10_000;

/** The `IndexLockedError` of a writer that lost its lock. */
export function lostLockError(directory: string, lost: Error): IndexLockedError {
  return new IndexLockedError({
    directory,
    reason: `The write lock of the index at ${directory} was lost (${lost.message}); another process may be writing. Nothing more is written: close and reopen.`,
    cause: lost,
  });
}

/** What identifies one `mkdir` of the lock folder: a takeover removes it and makes a new one. */
interface LockIdentity {
  dev: bigint;
  ino: bigint;
  /** 0 where the platform does not report birth times (then the inode alone identifies it). */
  birthtimeNs: bigint;
}

function identityOf(stats: BigIntStats): LockIdentity {
  return { dev: stats.dev, ino: stats.ino, birthtimeNs: stats.birthtimeNs };
}

function sameIdentity(left: LockIdentity, right: LockIdentity): boolean {
  return (
    left.dev === right.dev &&
    left.ino === right.ino &&
    (left.birthtimeNs === 0n || right.birthtimeNs === 0n || left.birthtimeNs === right.birthtimeNs)
  );
}

function isLockedError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ELOCKED";
}

function errorCode(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

function sameOwner(left: LockOwner | undefined, right: LockOwner): boolean {
  return left !== undefined && left.pid === right.pid && left.hostname === right.hostname && left.acquiredAt === right.acquiredAt;
}

/**
 * Removes the lock folder of `owner`, a holder that is gone, unless it is no longer that
 * holder's. Returns whether the folder is gone. The folder is first claimed atomically: it
 * is renamed to `write.lock.stale-<pid>-<random>`, and only the renamed folder is inspected
 * and removed. So two writers taking over the same dead holder at once cannot remove each
 * other's fresh lock (a check of the owner file followed by a removal of `write.lock` could
 * remove a folder another writer made in between): if the claimed folder turns out to be
 * another writer's (its owner file names someone else, or it has none yet), it is renamed
 * back unchanged (the same folder, so that writer still finds its lock its own) and this
 * writer gives up.
 */
export function removeAbandonedLock(lockPath: string, owner: LockOwner): boolean {
  const claimed = `${lockPath}.stale-${process.pid}-${randomBytes(6).toString("hex")}`;
  try {
    fs.renameSync(lockPath, claimed);
  } catch (error) {
    // Already gone (another writer removed it): try to take the lock.
    return errorCode(error) === "ENOENT";
  }
  if (sameOwner(readLockOwner(claimed), owner)) {
    fs.rmSync(claimed, { recursive: true, force: true });
    return true;
  }
  // Another writer's lock: put it back, unless a third one made a new lock meanwhile (then
  // the claimed one is lost anyway, and that writer finds out before it commits).
  if (!fs.existsSync(lockPath)) {
    try {
      fs.renameSync(claimed, lockPath);
      return false;
    } catch {
      // Fall through: remove the claimed copy rather than leave it behind.
    }
  }
  fs.rmSync(claimed, { recursive: true, force: true });
  return false;
}

/**
 * Takes the write lock of `directory` (which must exist) with `proper-lockfile`: an atomic
 * `mkdir` of `write.lock`, refreshed every 10 s, stale after 30 s, and records the holder's
 * process id and host name in `write.lock/owner.json`. A held lock throws
 * `IndexLockedError` at once (no waiting), naming its holder, unless the holder ran on this
 * host and its process is gone (`process.kill(pid, 0)` finds no such process): then the
 * lock is taken over at once (claimed by an atomic rename first, see `removeAbandonedLock`).
 * A lock without an owner file (an earlier release's) or of another host keeps the
 * stale-time rule. `proper-lockfile` is loaded only here, so
 * readers never pay for it.
 */
export async function acquireWriteLock(directory: string): Promise<WriteLock> {
  const { default: lockfile } = await import("proper-lockfile");
  const lockPath = join(directory, lockName);
  let lost: Error | undefined;
  let identity: LockIdentity | undefined;
  /** Whether the lock folder may be removed: before it is this writer's (a stale lock), or while it still is. */
  const mayRemove = (path: fs.PathLike): boolean => {
    if (identity === undefined || String(path) !== lockPath) return true;
    try {
      return sameIdentity(identity, identityOf(statSync(lockPath, { bigint: true })));
    } catch {
      return true;
    }
  };
  // proper-lockfile removes the lock folder on release and at process exit without asking
  // whose it is; this file system (the calls proper-lockfile makes) leaves a folder made by
  // a writer that took it over alone.
  const guardedFs = {
    mkdir: fs.mkdir,
    realpath: fs.realpath,
    stat: fs.stat,
    utimes: fs.utimes,
    // The folder holds the owner file: it goes first, so the folder can be removed.
    rmdir(path: fs.PathLike, callback: (error: NodeJS.ErrnoException | null) => void): void {
      if (!mayRemove(path)) {
        callback(null);
        return;
      }
      fs.rm(join(String(path), lockOwnerFileName), { force: true }, () => fs.rmdir(path, callback));
    },
    rmdirSync(path: fs.PathLike): void {
      if (!mayRemove(path)) return;
      removeLockOwner(String(path));
      fs.rmdirSync(path);
    },
  };
  const lockOptions = {
    fs: guardedFs,
    lockfilePath: lockPath,
    realpath: false,
    stale: staleMs,
    update: updateMs,
    retries: 0,
    onCompromised: (error: Error) => {
      lost ??= error;
    },
  };
  let releaseLock: () => Promise<void>;
  try {
    releaseLock = await lockfile.lock(directory, lockOptions);
  } catch (error) {
    if (!isLockedError(error)) throw error;
    // A holder that died on this host is taken over at once; any other waits for staleness.
    const owner = readLockOwner(lockPath);
    const holder = owner === undefined ? undefined : describeLockOwner(owner);
    if (owner === undefined || !isLockOwnerGone(owner) || !removeAbandonedLock(lockPath, owner)) {
      throw new IndexLockedError({ directory, holder, cause: error });
    }
    try {
      releaseLock = await lockfile.lock(directory, lockOptions);
    } catch (again) {
      // Another writer took the abandoned lock first.
      if (isLockedError(again)) throw new IndexLockedError({ directory, cause: again });
      throw again;
    }
  }
  let held: LockIdentity;
  try {
    const made = statSync(lockPath, { bigint: true });
    held = identityOf(made);
    identity = held;
    writeLockOwner(lockPath);
    // proper-lockfile takes a changed time stamp for a takeover: keep the one it set.
    const stamp = new Date(Number(made.mtimeNs / 1_000_000n));
    fs.utimesSync(lockPath, stamp, stamp);
  } catch (error) {
    await releaseLock().catch(() => undefined);
    throw error;
  }

  /** Why the lock is no longer this writer's, or undefined while it is. */
  function problem(checkFreshness: boolean): Error | undefined {
    let stats: BigIntStats;
    try {
      stats = statSync(lockPath, { bigint: true });
    } catch (error) {
      return new Error(`its folder ${lockName} is gone`, { cause: error });
    }
    if (!sameIdentity(held, identityOf(stats))) return new Error(`another writer took ${lockName} over`);
    const age = Date.now() - Number(stats.mtimeNs / 1_000_000n);
    if (checkFreshness && age > staleMs) {
      return new Error(`${lockName} was not refreshed for ${Math.round(age / 1000)} s, so it is stale and another writer may take it over`);
    }
    return undefined;
  }

  let released = false;
  return {
    get lost() {
      return lost;
    },
    assertHeld() {
      if (lost === undefined) lost = problem(true);
      if (lost !== undefined) throw lostLockError(directory, lost);
    },
    async release() {
      if (released) return;
      released = true;
      // Never remove a lock folder another writer made after taking this one over.
      if (lost !== undefined || problem(false) !== undefined) return;
      await releaseLock().catch(() => undefined);
    },
  };
}
