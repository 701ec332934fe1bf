/** Where the spool flusher stands (see `createSpoolFlusher`). */
export interface SpoolFlusherState {
  /** The last flush begun, settled or not: the next one runs after it. */
  chain: Promise<unknown>;
  /** Records appended since the running flush (or, when none runs, the last one) began. */
  appended: number;
  /** `appendedBytes()` when the last background flush began. */
  bytesAtLastFlush: number;
  /** `appendedBytes()` when the last flush that went through began: what it moved is in the database. */
  bytesFlushed: number;
  /** A background flush is running. */
  running: boolean;
  /** An outage was reported and has not ended. */
  failing: boolean;
  backoffMs: number;
  /** No background flush starts before this time (ms since the epoch). */
  nextAttemptAt: number;
  stopped: boolean;
}

/** A new flusher's state: idle, nothing appended, the backoff at `intervalMs`. */
export function initialSpoolFlusherState(intervalMs: number): SpoolFlusherState {
  return {
    chain: Promise.resolve(),
    appended: 0,
    bytesAtLastFlush: 0,
    bytesFlushed: 0,
    running: false,
    failing: false,
    backoffMs: intervalMs,
    nextAttemptAt: 0,
    stopped: false,
  };
}
