import { asFlushError } from "./as-flush-error.js";
import { somethingSpooled } from "./something-spooled.js";
import type { TraceFlushReport } from "../spool/trace-flush-report.js";
import type { SpoolFlusher } from "./spool-flusher.js";
import type { SpoolFlusherOptions } from "./spool-flusher-options.js";
import { initialSpoolFlusherState } from "./spool-flusher-state.js";
import { TraceStoreError } from "../errors/trace-store-error.js";

/** The longest wait between two background flushes after failures. */
const longestBackoffMs = 60_000;

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
export function createSpoolFlusher(options: SpoolFlusherOptions): SpoolFlusher {
  const state = initialSpoolFlusherState(options.intervalMs);

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

  function backgroundFlush(): void {
    if (state.running || state.stopped || Date.now() < state.nextAttemptAt || !somethingSpooled(options.directory, state.appended)) return;
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
