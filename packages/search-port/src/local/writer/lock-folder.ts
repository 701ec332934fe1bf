import { statSync, utimesSync } from "node:fs";
import type { BigIntStats, PathLike } from "node:fs";
import { join } from "node:path";
import { writeLockOwner } from "./lock-owner.js";

/** The lock's folder inside the index folder (proper-lockfile creates it with `mkdir`). */
export const lockName = "write.lock";

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

/**
 * The lock folder `write.lock` of an index folder, and, once this writer holds the lock,
 * which `mkdir` of it is this writer's: a writer that took the lock over removed that one
 * and made its own.
 */
export class LockFolder {
  readonly path: string;
  /** The folder this writer made, once it holds the lock (`claim`). */
  private identity: LockIdentity | undefined;

  /** `staleMs`: how long the holder may go without refreshing the lock before it is stale. */
  constructor(
    directory: string,
    private readonly staleMs: number,
  ) {
    this.path = join(directory, lockName);
  }

  /** Whether the lock folder may be removed: before it is this writer's (a stale lock), or while it still is. */
  mayRemove(path: PathLike): boolean {
    if (this.identity === undefined || String(path) !== this.path) return true;
    try {
      return sameIdentity(this.identity, identityOf(statSync(this.path, { bigint: true })));
    } catch {
      return true;
    }
  }

  /** Right after the lock was taken: notes which folder is this writer's and records this process as its holder. */
  claim(): void {
    const made = statSync(this.path, { bigint: true });
    this.identity = identityOf(made);
    writeLockOwner(this.path);
    // proper-lockfile takes a changed time stamp for a takeover: keep the one it set.
    const stamp = new Date(Number(made.mtimeNs / 1_000_000n));
    utimesSync(this.path, stamp, stamp);
  }

  /** Why the claimed lock is no longer this writer's, or undefined while it is. */
  problem(checkFreshness: boolean): Error | undefined {
    let stats: BigIntStats;
    try {
      stats = statSync(this.path, { bigint: true });
    } catch (error) {
      return new Error(`its folder ${lockName} is gone`, { cause: error });
    }
    if (!sameIdentity(this.identity as LockIdentity, identityOf(stats))) return new Error(`another writer took ${lockName} over`);
    const age = Date.now() - Number(stats.mtimeNs / 1_000_000n);
    if (checkFreshness && age > this.staleMs) {
      return new Error(`${lockName} was not refreshed for ${Math.round(age / 1000)} s, so it is stale and another writer may take it over`);
    }
    return undefined;
  }
}
