import { join } from "node:path";
import { IndexLockedError } from "./index-locked-error.js";

/** The lock's folder inside the index folder (proper-lockfile creates it with `mkdir`). */
export const lockName = "write.lock";

/** A lock held on an index folder. */
export interface WriteLock {
  /** Set when the lock was lost (its folder was removed or could not be refreshed). */
  readonly lost: Error | undefined;
  release(): Promise<void>;
}

/** The lock goes stale when its holder has not refreshed it for this long (a crashed writer). */
const staleMs = 30_000;
/** The holder refreshes the lock's time stamp this often. */
const updateMs = 10_000;

/**
 * Takes the write lock of `directory` (which must exist) with `proper-lockfile`: an atomic
 * `mkdir` of `write.lock`, refreshed every 10 s, stale after 30 s. A held lock throws
 * `IndexLockedError` at once (no waiting). `proper-lockfile` is loaded only here, so
 * readers never pay for it.
 */
export async function acquireWriteLock(directory: string): Promise<WriteLock> {
  const { default: lockfile } = await import("proper-lockfile");
  let lost: Error | undefined;
  let releaseLock: () => Promise<void>;
  try {
    releaseLock = await lockfile.lock(directory, {
      lockfilePath: join(directory, lockName),
      realpath: false,
      stale: staleMs,
      update: updateMs,
      retries: 0,
      onCompromised: (error: Error) => {
        lost = error;
      },
    });
  } catch (error) {
    if (typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ELOCKED") {
      throw new IndexLockedError({ directory, cause: error });
    }
    throw error;
  }
  let released = false;
  return {
    get lost() {
      return lost;
    },
    async release() {
      if (released) return;
      released = true;
      if (lost !== undefined) return;
      await releaseLock().catch(() => undefined);
    },
  };
}
