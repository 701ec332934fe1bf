import { TimeoutError } from "@lookup-knowledge/core";
import { isSpoolingTraceStore } from "./spooling-trace-store.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";
import type { TraceStore } from "../trace-store.js";

/** Writes one record at a time to the trace recorder's store, each write bounded by the write timeout. */
export interface TraceStoreWriter {
  /** The store is a `SpoolingTraceStore`, written through `append`: a write is settled when `write` returns. */
  readonly spooling: boolean;
  /** Writes not settled yet. */
  readonly inFlight: number;
  /**
   * Writes one record and calls `done` once: at once for a spooling store (through `append`)
   * and when the store throws synchronously, else when its promise settles or
   * `writeTimeoutMs` passes, whichever comes first. The returned promise resolves after
   * `done` ran; it never rejects.
   */
  write(invocation: ToolInvocationRecord, done: (ok: boolean, cause?: unknown) => void): Promise<void>;
}

/** The writer of `store`, for `createTraceRecorder`. */
export function createTraceStoreWriter(store: TraceStore, writeTimeoutMs: number): TraceStoreWriter {
  const spooling = isSpoolingTraceStore(store) ? store : undefined;
  const written: Promise<void> = Promise.resolve();
  let inFlight = 0;

  function write(invocation: ToolInvocationRecord, done: (ok: boolean, cause?: unknown) => void): Promise<void> {
    if (spooling) {
      // Durable once append returns: nothing to time out, nothing in flight.
      let ok = false;
      try {
        spooling.append(invocation);
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
      outcome = store.record(invocation);
    } catch (error) {
      finish(false, error);
      return whenSettled;
    }
    timer = setTimeout(() => {
      finish(false, new TimeoutError({ operation: `The trace store write of ${invocation.id}`, timeoutMs: writeTimeoutMs }));
    }, writeTimeoutMs);
    timer.unref?.();
    Promise.resolve(outcome).then(
      () => finish(true),
      (error: unknown) => finish(false, error),
    );
    return whenSettled;
  }

  return {
    spooling: spooling !== undefined,
    get inFlight(): number {
      return inFlight;
    },
    write,
  };
}
