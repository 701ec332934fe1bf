import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { listSpoolSegments, liveSegments, spoolDirectory } from "./spool/spool-segment.js";
import type { TraceFlushReport } from "./spool/trace-flush-report.js";
import { TraceStoreError } from "./trace-store-error.js";

/** The longest wait between two background flushes after failures. */
const longestBackoffMs = 60_000;

/** Moves a durable store's spooled records into its database: by hand, on a timer, or once enough was appended. */
export interface SpoolFlusher {
  /** Counts one record appended to the spool; starts a background flush once a bound is passed. */
  appended(): void;
  /** One flush, after the flushes before it; waits up to `lockWaitMs` for another process's flush lock. */
  flush(lockWaitMs: number): Promise<TraceFlushReport>;
  /** Starts a background flush now, whatever the bounds (unless one runs, an outage's backoff lasts, or it was stopped). */
  makeRoom(): void;
  /** Bytes this process appended that no flush has moved into the database yet (as far as it knows). */
  unflushedBytes(): number;
  /** A flush by hand went through: an outage the background flusher reported is over. */
  recovered(): void;
  /** Stops the background flusher and waits for the flush that is running. Never rejects. */
  stop(): Promise<void>;
}

/**
 * The durable store's one flusher, a small state machine:
 *
 * - **idle**: nothing runs. Every `intervalMs` (when more than 0), and from `appended` once
 *   `afterRecords` records or `afterBytes` bytes were appended since the last background
 *   flush began, a background flush starts, if something is spooled (own appends, or a
 *   segment this process does not write).
 * - **flushing**: one background flush at a time; `flush` by hand queues behind it (every
 *   flush runs after the one before it, `flushSpool` is never run twice at once).
 * - **backing off**: a background flush failed. The first failure of an outage is reported;
 *   no background flush starts before the backoff has passed. It begins at `intervalMs`
 *   (1 s when that is 0), doubles per failure up to 60 s, and ends with the next flush that
 *   goes through. A flush that found the spool locked by another process is no failure.
 * - **stopped**: `stop` was called; nothing starts by itself any more.
 *
 * Only the database can fail here: every record is already in the spool, so an outage
 * delays records and never loses one.
 */
export function createSpoolFlusher(options: {
  /** The trace folder. */
  directory: string;
  /** Shown in the error of a failed flush that is not a `LookupKnowledgeError`. */
  location: string;
  intervalMs: number;
  afterRecords: number;
  afterBytes: number;
  /** `spool.appendedBytes`: the bytes appended to the spool so far. */
  appendedBytes: () => number;
  /** Runs `flushTraceSpool` once. */
  flushSpool: (lockWaitMs: number) => Promise<TraceFlushReport>;
  report: (error: LookupKnowledgeError) => void;
}): SpoolFlusher {
  const state = {
    /** The last flush begun, settled or not: the next one runs after it. */
    chain: Promise.resolve() as Promise<unknown>,
    /** Records appended since the running flush (or, when none runs, the last one) began. */
    appended: 0,
    /** `appendedBytes()` when the last background flush began. */
    bytesAtLastFlush: 0,
    /** `appendedBytes()` when the last flush that went through began: what it moved is in the database. */
    bytesFlushed: 0,
    /** A background flush is running. */
    running: false,
    /** An outage was reported and has not ended. */
    failing: false,
    backoffMs: options.intervalMs,
    /** No background flush starts before this time (ms since the epoch). */
    nextAttemptAt: 0,
    stopped: false,
  };

  function flush(lockWaitMs: number): Promise<TraceFlushReport> {
    const run = state.chain.then(async () => {
      const before = state.appended;
      const bytesBefore = options.appendedBytes();
      const outcome = await options.flushSpool(lockWaitMs);
      state.appended -= before;
      state.bytesFlushed = Math.max(state.bytesFlushed, bytesBefore);
      return outcome;
    });
    state.chain = run.catch(() => undefined);
    return run;
  }

  /** Whether a background flush has anything to do: own appends, or a segment not being written here. */
  function somethingSpooled(): boolean {
    if (state.appended > 0) return true;
    try {
      return listSpoolSegments(spoolDirectory(options.directory)).some((segment) => !liveSegments.has(segment.file));
    } catch {
      return false;
    }
  }

  function backgroundFlush(): void {
    if (state.running || state.stopped || Date.now() < state.nextAttemptAt || !somethingSpooled()) return;
    state.running = true;
    state.bytesAtLastFlush = options.appendedBytes();
    flush(0)
      .then(() => {
        state.failing = false;
        state.backoffMs = options.intervalMs;
        state.nextAttemptAt = 0;
      })
      .catch((error: unknown) => {
        // Another process flushing is no failure: the records are on their way.
        if (TraceStoreError.isInstance(error) && error.code === "trace_store_locked") return;
        if (!state.failing) {
          state.failing = true;
          options.report(asFlushError(error, options.location));
        }
        state.nextAttemptAt = Date.now() + (state.backoffMs || 1000);
        state.backoffMs = Math.min((state.backoffMs || 1000) * 2, longestBackoffMs);
      })
      .finally(() => {
        state.running = false;
      });
  }

  let timer: ReturnType<typeof setInterval> | undefined;
  if (options.intervalMs > 0) {
    timer = setInterval(backgroundFlush, options.intervalMs);
    timer.unref?.();
  }

  return {
    appended(): void {
      state.appended += 1;
      // The timer alone starves under back-to-back lookups: a bound passed starts a flush.
      if (state.running) return;
      const byCount = options.afterRecords > 0 && state.appended >= options.afterRecords;
      const byBytes = options.afterBytes > 0 && options.appendedBytes() - state.bytesAtLastFlush >= options.afterBytes;
      if (byCount || byBytes) backgroundFlush();
    },
    flush,
    makeRoom: backgroundFlush,
    unflushedBytes(): number {
      return options.appendedBytes() - state.bytesFlushed;
    },
    recovered(): void {
      state.failing = false;
      state.backoffMs = options.intervalMs;
    },
    async stop(): Promise<void> {
      state.stopped = true;
      if (timer) clearInterval(timer);
      await state.chain;
    },
  };
}

/** A failed flush as the error reported: a library error as it is, anything else as `trace_database_unavailable`. */
export function asFlushError(error: unknown, location: string): LookupKnowledgeError {
  if (LookupKnowledgeError.isInstance(error)) return error;
  return new TraceStoreError({
    code: "trace_database_unavailable",
    message: `Could not flush trace records into ${location}: ${(error as Error)?.message ?? String(error)}. They stay in the spool.`,
    location,
    cause: error,
  });
}
