import { ConfigurationError } from "@lookup-knowledge/core";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";
import { TraceRecordError } from "./trace-record-error.js";
import type { TraceRecorder } from "./trace-recorder.js";
import type { TraceStore } from "./trace-store.js";

interface Entry {
  /** The order `record` was called in; waiting records are kept sorted by it. */
  sequence: number;
  invocation: ToolInvocationRecord;
  /** What the last failed write of this record threw or rejected with. */
  lastError?: unknown;
}

/**
 * Wraps a `TraceStore` so that recording never fails or blocks a lookup, and no record is
 * silently lost (R29).
 *
 * - `record` calls `store.record` synchronously and returns; a synchronous throw or a
 *   rejection puts the record in a waiting queue (ordered by call order) and calls `onError`
 *   with a `TraceRecordError` `trace_record_failed`.
 * - Waiting records are written again, oldest first, before the new one on each `record`,
 *   and on `flush`. A record is in flight or waiting, never both, so a successful write is
 *   never repeated.
 * - When more than `maxPending` (default 1000) records wait, the oldest is dropped and
 *   `onError` gets a `trace_record_dropped` error holding it: loud, never silent.
 * - The default `onError` prints each error's message with `console.warn`. An `onError`
 *   that throws is ignored.
 *
 * Records reach the store in call order, except that a failed one is written again later;
 * readers that need the order should sort by `createdAt`.
 */
export function createTraceRecorder(
  store: TraceStore,
  options: { maxPending?: number; onError?: (error: TraceRecordError) => void } = {},
): TraceRecorder {
  const maxPending = options.maxPending ?? 1000;
  if (!Number.isInteger(maxPending) || maxPending < 0) {
    throw new ConfigurationError({ key: "maxPending", value: maxPending, reason: "must be a whole number, 0 or more" });
  }
  const onError = options.onError ?? ((error: TraceRecordError) => console.warn(error.message));

  const waiting: Entry[] = [];
  const inFlight = new Set<Promise<void>>();
  let nextSequence = 0;
  let recorded = 0;

  function report(error: TraceRecordError): void {
    try {
      onError(error);
    } catch {
      // The handler's own failure must not reach the lookup.
    }
  }

  function fail(entry: Entry, cause: unknown): void {
    entry.lastError = cause;
    let index = waiting.length;
    while (index > 0 && (waiting[index - 1] as Entry).sequence > entry.sequence) index -= 1;
    waiting.splice(index, 0, entry);
    report(new TraceRecordError({ code: "trace_record_failed", invocation: entry.invocation, cause }));
    while (waiting.length > maxPending) {
      const dropped = waiting.shift() as Entry;
      report(
        new TraceRecordError({
          code: "trace_record_dropped",
          invocation: dropped.invocation,
          cause: dropped.lastError,
          maxPending,
        }),
      );
    }
  }

  function write(entry: Entry): void {
    let outcome: unknown;
    try {
      outcome = store.record(entry.invocation);
    } catch (error) {
      fail(entry, error);
      return;
    }
    const settled: Promise<void> = Promise.resolve(outcome).then(
      () => {
        recorded += 1;
      },
      (error: unknown) => fail(entry, error),
    );
    const tracked = settled.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  }

  function retryWaiting(): void {
    for (const entry of waiting.splice(0)) write(entry);
  }

  async function settleInFlight(): Promise<void> {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  }

  async function flush(): Promise<{ recorded: number; pending: number }> {
    try {
      await settleInFlight();
      retryWaiting();
      await settleInFlight();
    } catch {
      // Nothing above rejects; this only keeps the promise from ever doing so.
    }
    return { recorded, pending: waiting.length + inFlight.size };
  }

  return {
    record(invocation: ToolInvocationRecord): void {
      try {
        const entry: Entry = { sequence: nextSequence, invocation };
        nextSequence += 1;
        retryWaiting();
        write(entry);
      } catch {
        // write() and retryWaiting() catch the store's failures; nothing else can throw here.
      }
    },
    flush,
    get pending(): number {
      return waiting.length + inFlight.size;
    },
    async close(): Promise<void> {
      await flush();
    },
  };
}
