import { parseOptions, TimeoutError } from "@lookup-knowledge/core";
import { z } from "zod";
import { isSpoolingTraceStore } from "./spooling-trace-store.js";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";
import { TraceRecordError } from "./trace-record-error.js";
import type { TraceRecorder } from "./trace-recorder.js";
import type { TraceStore } from "./trace-store.js";
import { wholeNumberOption } from "./whole-number-option.js";

/** The longest wait between two retry passes, unless `retryDelayMs` is longer. */
const longestRetryDelayMs = 30_000;

/** The numeric options of `createTraceRecorder`, with their defaults (`onError` is read as given). */
const recorderOptionsSchema = z.object({
  maxPending: wholeNumberOption(0).default(1000),
  retryDelayMs: wholeNumberOption(0).default(500),
  writeTimeoutMs: wholeNumberOption(1).default(5000),
});

interface Entry {
  /** The order `record` was called in; waiting records are kept sorted by it. */
  sequence: number;
  invocation: ToolInvocationRecord;
  /** What the last failed write of this record threw or rejected with. */
  lastError?: unknown;
}

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
export function createTraceRecorder(
  store: TraceStore,
  options: {
    /** Most records kept waiting during an outage; beyond it the oldest is dropped. Default 1000. */
    maxPending?: number;
    /** First wait between retry passes, in ms; doubles per failed pass up to 30 s. Default 500. */
    retryDelayMs?: number;
    /** A write not settled after this many ms counts as failed. Default 5000. */
    writeTimeoutMs?: number;
    onError?: (error: TraceRecordError) => void;
  } = {},
): TraceRecorder {
  const { maxPending, retryDelayMs, writeTimeoutMs } = parseOptions(recorderOptionsSchema, options, "createTraceRecorder");
  const maxRetryDelayMs = Math.max(retryDelayMs, longestRetryDelayMs);
  const onError = options.onError ?? ((error: TraceRecordError) => console.warn(error.message));
  const spooling = isSpoolingTraceStore(store) ? store : undefined;
  const written: Promise<void> = Promise.resolve();

  /** Records waiting for a retry pass, in call order. */
  const waiting: Entry[] = [];
  /** Writes made by `record` directly (outside a retry pass) that have not settled. */
  const direct = new Set<Promise<void>>();
  /** Writes not settled, direct or by the retry pass. */
  let inFlight = 0;
  let pass: Promise<void> | undefined;
  let retrying = false;
  /** An outage was reported and has not ended. */
  let failing = false;
  let lastCause: unknown;
  let delayMs = retryDelayMs;
  let retryAt = 0;
  let nextSequence = 0;
  let recorded = 0;

  function report(error: TraceRecordError): void {
    try {
      onError(error);
    } catch {
      // The handler's own failure must not reach the lookup.
    }
  }

  /** Puts `entry` in the waiting queue by call order, dropping the oldest beyond `maxPending`. */
  function enqueue(entry: Entry): void {
    let index = waiting.length;
    while (index > 0 && (waiting[index - 1] as Entry).sequence > entry.sequence) index -= 1;
    waiting.splice(index, 0, entry);
    while (waiting.length > maxPending) {
      const dropped = waiting.shift() as Entry;
      report(
        new TraceRecordError({
          code: "trace_record_dropped",
          invocation: dropped.invocation,
          cause: dropped.lastError ?? lastCause,
          maxPending,
        }),
      );
    }
  }

  function scheduleRetry(): void {
    retryAt = Date.now() + delayMs;
    delayMs = Math.min(delayMs * 2, maxRetryDelayMs);
  }

  function endOutage(): void {
    failing = false;
    delayMs = retryDelayMs;
    retryAt = 0;
  }

  /**
   * Writes one record and calls `done` once: at once for a spooling store (through `append`)
   * and when the store throws synchronously, else when its promise settles or
   * `writeTimeoutMs` passes, whichever comes first. The returned promise resolves after
   * `done` ran; it never rejects.
   */
  function write(entry: Entry, done: (ok: boolean, cause?: unknown) => void): Promise<void> {
    if (spooling) {
      // Durable once append returns: nothing to time out, nothing in flight.
      let ok = false;
      try {
        spooling.append(entry.invocation);
        ok = true;
      } catch (error) {
        done(false, error);
      }
      if (ok) done(true);
      return written;
    }
    inFlight += 1;
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let resolveSettled: () => void = () => {};
    const whenSettled = new Promise<void>((resolve) => (resolveSettled = resolve));
    const finish = (ok: boolean, cause?: unknown): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      inFlight -= 1;
      try {
        done(ok, cause);
      } finally {
        resolveSettled();
      }
    };
    let outcome: unknown;
    try {
      outcome = store.record(entry.invocation);
    } catch (error) {
      finish(false, error);
      return whenSettled;
    }
    timer = setTimeout(() => {
      finish(false, new TimeoutError({ operation: `The trace store write of ${entry.invocation.id}`, timeoutMs: writeTimeoutMs }));
    }, writeTimeoutMs);
    timer.unref?.();
    Promise.resolve(outcome).then(
      () => finish(true),
      (error: unknown) => finish(false, error),
    );
    return whenSettled;
  }

  function writeDirect(entry: Entry): void {
    const settled = write(entry, (ok, cause) => {
      if (ok) {
        recorded += 1;
        if (failing && waiting.length === 0 && !retrying) endOutage();
        return;
      }
      entry.lastError = cause;
      lastCause = cause;
      if (!failing) {
        failing = true;
        delayMs = retryDelayMs;
        scheduleRetry();
        report(new TraceRecordError({ code: "trace_record_failed", invocation: entry.invocation, cause }));
      }
      enqueue(entry);
    });
    if (spooling) return; // settled already
    const tracked = settled.finally(() => direct.delete(tracked));
    direct.add(tracked);
  }

  /** Writes waiting records one at a time, oldest first, until the queue is empty or a write fails. */
  async function runPass(): Promise<void> {
    try {
      while (waiting.length > 0) {
        const entry = waiting.shift() as Entry;
        const outcome = await new Promise<{ ok: boolean; cause?: unknown }>((resolve) => {
          void write(entry, (ok, cause) => resolve({ ok, cause }));
        });
        if (outcome.ok) {
          recorded += 1;
          continue;
        }
        entry.lastError = outcome.cause;
        lastCause = outcome.cause;
        enqueue(entry);
        scheduleRetry();
        return;
      }
      endOutage();
    } finally {
      retrying = false;
    }
  }

  /** Starts a retry pass unless one is running or nothing waits. */
  function startPass(): void {
    if (retrying || waiting.length === 0) return;
    retrying = true;
    const running = runPass().catch(() => {
      // runPass does not throw; this only keeps a rejection from going unhandled.
    });
    pass = running;
    void running.finally(() => {
      if (pass === running) pass = undefined;
    });
  }

  async function flush(): Promise<{ recorded: number; pending: number }> {
    try {
      await Promise.allSettled([...direct, ...(pass === undefined ? [] : [pass])]);
      startPass();
      if (pass !== undefined) await pass;
    } catch {
      // Nothing above rejects; this only keeps the promise from ever doing so.
    }
    return { recorded, pending: waiting.length + inFlight };
  }

  return {
    record(invocation: ToolInvocationRecord): void {
      try {
        const entry: Entry = { sequence: nextSequence, invocation };
        nextSequence += 1;
        if (waiting.length > 0 || retrying) {
          enqueue(entry);
          if (Date.now() >= retryAt) startPass();
          return;
        }
        writeDirect(entry);
      } catch {
        // write() catches the store's failures; nothing else can throw here.
      }
    },
    flush,
    get pending(): number {
      return waiting.length + inFlight;
    },
    async close(): Promise<void> {
      await flush();
    },
  };
}
