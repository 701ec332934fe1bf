import type { LockOptions } from "proper-lockfile";
import { IndexLockedError } from "../errors/index-locked-error.js";
import { guardedLockFs } from "./guarded-lock-fs.js";
import { LockFolder } from "./lock-folder.js";
import { describeLockOwner, isLockOwnerGone, readLockOwner } from "./lock-owner.js";
import { removeAbandonedLock } from "./remove-abandoned-lock.js";

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

function isLockedError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ELOCKED";
}

/** The write lock as this writer holds it, from the moment it asks for it; `lost` set when proper-lockfile reports it compromised. */
class HeldWriteLock implements WriteLock {
  private lostError: Error | undefined;
  private released = false;
  private releaseLock: () => Promise<void> = async () => undefined;

  constructor(
    private readonly directory: string,
    private readonly folder: LockFolder,
  ) {}

  get lost(): Error | undefined {
    return this.lostError;
  }

  markLost(error: Error): void {
    this.lostError ??= error;
  }

  /** The lock is this writer's: `release` lets go of it through proper-lockfile's `release`. */
  hold(release: () => Promise<void>): void {
    this.releaseLock = release;
  }

  assertHeld(): void {
    if (this.lostError === undefined) this.lostError = this.folder.problem(true);
    if (this.lostError !== undefined) throw lostLockError(this.directory, this.lostError);
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    // Never remove a lock folder another writer made after taking this one over.
    if (this.lostError !== undefined || this.folder.problem(false) !== undefined) return;
    await this.releaseLock().catch(() => undefined);
  }
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
  const folder = new LockFolder(directory, staleMs);
  const held = new HeldWriteLock(directory, folder);
  const lockOptions: LockOptions = {
    fs: guardedLockFs(folder),
    lockfilePath: folder.path,
    realpath: false,
    stale: staleMs,
    update: updateMs,
    retries: 0,
    onCompromised: (error: Error) => held.markLost(error),
  };
  let releaseLock: () => Promise<void>;
  try {
    releaseLock = await lockfile.lock(directory, lockOptions);
  } catch (error) {
    if (!isLockedError(error)) throw error;
    // A holder that died on this host is taken over at once; any other waits for staleness.
    removeLockOfGoneHolder(directory, folder, error);
    try {
      releaseLock = await lockfile.lock(directory, lockOptions);
    } catch (again) {
      // Another writer took the abandoned lock first.
      if (isLockedError(again)) throw new IndexLockedError({ directory, cause: again });
      throw again;
    }
  }
  try {
    folder.claim();
  } catch (error) {
    await releaseLock().catch(() => undefined);
    throw error;
  }
  held.hold(releaseLock);
  return held;
}

/**
 * The lock is held (`error`, proper-lockfile's): removes its folder when its holder ran on this
 * host and is gone (`removeAbandonedLock`); otherwise throws `IndexLockedError`, naming the holder when it is known.
 */
function removeLockOfGoneHolder(directory: string, folder: LockFolder, error: unknown): void {
  const owner = readLockOwner(folder.path);
  const holder = owner === undefined ? undefined : describeLockOwner(owner);
  if (owner === undefined || !isLockOwnerGone(owner) || !removeAbandonedLock(folder.path, owner)) {
    throw new IndexLockedError({ directory, holder, cause: error });
  }
}
