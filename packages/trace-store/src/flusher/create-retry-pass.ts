import type { WaitingRecords } from "../recorder/create-waiting-records.js";
import type { TraceStoreWriter } from "../durable/create-trace-store-writer.js";
import type { PendingTraceRecord } from "../record/pending-trace-record.js";

/** The trace recorder's retry passes over its waiting records, never more than one at a time. */
export interface RetryPass {
  /** A pass is running. */
  readonly running: boolean;
  /** The pass running (its promise never rejects), or undefined. */
  readonly current: Promise<void> | undefined;
  /** Starts a pass unless one is running or nothing waits. */
  start(): void;
}

/**
 * A pass writes waiting records one at a time, oldest first, and stops at the first failure
 * (`failed`), or when the queue is empty (`emptied`). `written` counts each record written.
 */
export function createRetryPass(parts: {
  waiting: WaitingRecords;
  writer: TraceStoreWriter;
  written: () => void;
  failed: (record: PendingTraceRecord, cause: unknown) => void;
  emptied: () => void;
}): RetryPass {
  const { waiting, writer } = parts;
  let pass: Promise<void> | undefined;
  let retrying = false;

  /** Writes waiting records one at a time, oldest first, until the queue is empty or a write fails. */
  async function runPass(): Promise<void> {
    try {
      while (waiting.length > 0) {
        const record = waiting.shift() as PendingTraceRecord;
        const outcome = await new Promise<{ ok: boolean; cause?: unknown }>((resolve) => {
          void writer.write(record.invocation, (ok, cause) => resolve({ ok, cause }));
        });
        if (outcome.ok) {
          parts.written();
          continue;
        }
        parts.failed(record, outcome.cause);
        return;
      }
      parts.emptied();
    } finally {
      retrying = false;
    }
  }

  return {
    get running(): boolean {
      return retrying;
    },
    get current(): Promise<void> | undefined {
      return pass;
    },
    start(): void {
      if (retrying || waiting.length === 0) return;
      retrying = true;
      const running = runPass().catch(() => {
        // runPass does not throw; this only keeps a rejection from going unhandled.
      });
      pass = running;
      void running.finally(() => {
        if (pass === running) pass = undefined;
      });
    },
  };
}
