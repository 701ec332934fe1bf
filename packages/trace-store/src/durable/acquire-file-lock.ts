import { TraceStoreError } from "../errors/trace-store-error.js";
import type { TraceStoreFailureCode } from "../errors/trace-store-error-code.js";

/**
 * A lock goes stale when its holder has not refreshed it for this long (a crashed or killed
 * process). Shorter than `defaultLockWaitMs`, so a waiter outlasts a dead holder's lock.
 */
export const lockStaleMs = 10_000;
/** The holder refreshes its lock this often (well within `lockStaleMs`). */
const updateMs = 3_000;
/** How long a flush or an open waits for another process's lock, unless told otherwise. */
export const defaultLockWaitMs = 15_000;
const pollMs = 100;

/**
 * Takes the lock `lockPath` (a folder made by an atomic `mkdir`, through `proper-lockfile`),
 * waiting up to `waitMs` for its holder; refreshed every 3 s while held, stale after 10 s
 * without a refresh (its holder died), so with the default wait of 15 s a lock left by a
 * killed process is taken over instead of failing. Resolves
 * to the function that releases it. A lock still held after `waitMs` throws
 * `TraceStoreError` (`options.code`, default `trace_store_locked`) naming `what`.
 */
export async function acquireFileLock(
  lockPath: string,
  options: {
    waitMs: number;
    what: string;
    code?: Extract<TraceStoreFailureCode, "trace_store_locked" | "trace_database_unavailable">;
    /** Told when the lock was lost while held (taken over as stale, or removed); default: nothing. */
    onCompromised?: (error: Error) => void;
  },
): Promise<() => Promise<void>> {
  const { default: lockfile } = await import("proper-lockfile");
  const retries = Math.max(0, Math.ceil(options.waitMs / pollMs));
  try {
    const release = await lockfile.lock(lockPath, {
      lockfilePath: lockPath,
      realpath: false,
      stale: lockStaleMs,
      update: updateMs,
      retries: retries === 0 ? 0 : { retries, factor: 1, minTimeout: pollMs, maxTimeout: pollMs },
      // A lost lock is found out by the next holder; never crash the process over it.
      onCompromised: options.onCompromised ?? (() => undefined),
    });
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await release().catch(() => undefined);
    };
  } catch (error) {
    if (typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ELOCKED") {
      throw new TraceStoreError({
        code: options.code ?? "trace_store_locked",
        message: `${options.what} is in use by another process (lock ${lockPath}); waited ${options.waitMs} ms.`,
        location: lockPath,
        cause: error,
      });
    }
    throw error;
  }
}
