import type { TraceFlushReport } from "../spool/trace-flush-report.js";

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
