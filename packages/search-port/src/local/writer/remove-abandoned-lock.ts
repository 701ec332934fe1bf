import * as fs from "node:fs";
import { randomBytes } from "node:crypto";
import { readLockOwner } from "./lock-owner.js";
import type { LockOwner } from "./lock-owner.js";

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
