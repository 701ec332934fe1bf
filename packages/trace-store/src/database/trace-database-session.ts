import { TraceStoreError } from "../errors/trace-store-error.js";
import type { TraceDatabase } from "./trace-database.js";
import type { TraceDatabaseOptions } from "./trace-database-options.js";

/** The trace database of a durable store, opened on first use and closed again when idle. */
export interface TraceDatabaseSession {
  /** Runs `work` with the database open, opening (and migrating) it when needed. */
  use<T>(work: (database: TraceDatabase) => Promise<T>): Promise<T>;
  /** Forgets a pending idle close (a store that is closing closes the session itself). */
  cancelIdleClose(): void;
  /** Closes the database if it is open. Never rejects. */
  close(): Promise<void>;
}

/**
 * The durable store's database: opened by the first `use` (the drivers are loaded then),
 * shared by the uses that overlap, and closed `idleCloseMs` after the last one ended, so that
 * another process can open the PGlite folder. A use that finds the embedded database broken
 * (`trace_database_unavailable`) closes it, and the next use opens it again; the pg pool
 * reconnects by itself.
 */
export function createTraceDatabaseSession(options: { target: TraceDatabaseOptions; idleCloseMs: number }): TraceDatabaseSession {
  let session: Promise<TraceDatabase> | undefined;
  let users = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;

  async function close(): Promise<void> {
    const current = session;
    session = undefined;
    if (current) await current.then((opened) => opened.close()).catch(() => undefined);
  }

  async function use<T>(work: (database: TraceDatabase) => Promise<T>): Promise<T> {
    users += 1;
    if (idleTimer) clearTimeout(idleTimer);
    try {
      if (!session) {
        const { openTraceDatabase } = await import("./open-trace-database.js"); // light; it loads the drivers
        const opening = openTraceDatabase(options.target);
        session = opening;
        opening.catch(() => {
          if (session === opening) session = undefined;
        });
      }
      const opened = await session;
      try {
        return await work(opened);
      } catch (error) {
        // A broken embedded database is reopened next time; the pg pool reconnects by itself.
        if (TraceStoreError.isInstance(error) && error.code === "trace_database_unavailable") await close();
        throw error;
      }
    } finally {
      users -= 1;
      if (users === 0) {
        idleTimer = setTimeout(() => {
          if (users === 0) void close();
        }, options.idleCloseMs);
        idleTimer.unref?.();
      }
    }
  }

  return {
    use,
    cancelIdleClose(): void {
      if (idleTimer) clearTimeout(idleTimer);
    },
    close,
  };
}
