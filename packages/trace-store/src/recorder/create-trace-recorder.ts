import { createRecorderOutage } from "./create-recorder-outage.js";
import { createRetryPass } from "../flusher/create-retry-pass.js";
import { createTraceStoreWriter } from "../durable/create-trace-store-writer.js";
import { createWaitingRecords } from "./create-waiting-records.js";
import type { PendingTraceRecord } from "../record/pending-trace-record.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import { readTraceRecorderOptions, type TraceRecorderOptions } from "./trace-recorder-options.js";
import type { TraceRecorder } from "./trace-recorder.js";
import type { TraceStore } from "../trace-store.js";

/**
 * Wraps a `TraceStore` so that recording never fails or blocks a lookup, no record is
 * silently lost (R29), and a store that is down is not hammered.
 *
 * - While the store works, `record` calls `store.record` synchronously and returns.
 * - A write that throws, rejects or does not settle within `writeTimeoutMs` (default 5000)
 *   puts its record in a waiting queue, ordered by call order. The first such failure
 *   starts an outage and is reported once to `onError` (`trace_record_failed`).
 * - During an outage (records waiting) `record` only appends to the queue. When the backoff
 *   delay has passed it also starts a retry pass, never more than one at a time: the pass
 *   writes waiting records one at a time, oldest first, and stops at the first failure.
 *   The delay starts at `retryDelayMs` (default 500), doubles after every failed pass up
 *   to 30 s, and is reset when the queue empties. Failed retries are not reported. No timer
 *   keeps the process alive: the delay is checked when `record` or `flush` is called.
 * - When more than `maxPending` (default 1000) records wait, the oldest is dropped and
 *   `onError` gets a `trace_record_dropped` error holding it: loud, never silent.
 * - `flush` waits for the writes in flight, then runs one retry pass regardless of the
 *   delay; it always settles and never rejects.
 * - The default `onError` prints each error's message with `console.warn`. An `onError`
 *   that throws is ignored.
 *
 * A timed-out write may still land later and its record is written again, so the store
 * must be idempotent by record id (an upsert, or insert ignoring a duplicate id).
 *
 * A durable store (`SpoolingTraceStore`: the spool, `createDurableTraceStore`) is written
 * through its synchronous `append`: the record is in its spool when `record` returns, with
 * no write timeout and nothing in flight, and the queue and backoff above are not in front
 * of it. They serve such a store only for a record its spool refused (a full disk, no
 * permission), which would otherwise be lost.
 */
export function createTraceRecorder(store: TraceStore, options: TraceRecorderOptions = {}): TraceRecorder {
  const { maxPending, retryDelayMs, maxRetryDelayMs, writeTimeoutMs, report } = readTraceRecorderOptions(options);
  const writer = createTraceStoreWriter(store, writeTimeoutMs);
  const outage = createRecorderOutage({ firstDelayMs: retryDelayMs, longestDelayMs: maxRetryDelayMs, report });
  /** Records waiting for a retry pass, in call order. */
  const waiting = createWaitingRecords(maxPending, report);
  /** Writes made by `record` directly (outside a retry pass) that have not settled. */
  const direct = new Set<Promise<void>>();
  let nextSequence = 0;
  let recorded = 0;

  const retryPass = createRetryPass({
    waiting,
    writer,
    written: () => {
      recorded += 1;
    },
    failed: (record, cause) => {
      waiting.noteFailure(record, cause);
      waiting.enqueue(record);
      outage.schedule();
    },
    emptied: () => outage.end(),
  });

  function writeDirect(record: PendingTraceRecord): void {
    const settled = writer.write(record.invocation, (ok, cause) => {
      if (ok) {
        recorded += 1;
        if (outage.failing && waiting.length === 0 && !retryPass.running) outage.end();
        return;
      }
      waiting.noteFailure(record, cause);
      outage.begin(record.invocation, cause);
      waiting.enqueue(record);
    });
    if (writer.spooling) return; // settled already
    const tracked = settled.finally(() => direct.delete(tracked));
    direct.add(tracked);
  }

  async function flush(): Promise<{ recorded: number; pending: number }> {
    try {
      await Promise.allSettled([...direct, ...(retryPass.current === undefined ? [] : [retryPass.current])]);
      retryPass.start();
      if (retryPass.current !== undefined) await retryPass.current;
    } catch {
      // Nothing above rejects; this only keeps the promise from ever doing so.
    }
    return { recorded, pending: waiting.length + writer.inFlight };
  }

  return {
    record(invocation: ToolInvocationRecord): void {
      try {
        const record: PendingTraceRecord = { sequence: nextSequence, invocation };
        nextSequence += 1;
        if (waiting.length > 0 || retryPass.running) {
          waiting.enqueue(record);
          if (outage.due()) retryPass.start();
          return;
        }
        writeDirect(record);
      } catch {
        // The writer catches the store's failures; nothing else can throw here.
      }
    },
    flush,
    get pending(): number {
      return waiting.length + writer.inFlight;
    },
    async close(): Promise<void> {
      await flush();
    },
  };
}
