import { createParsePool, type ParsePool } from "./parse-pool.js";
import type { ResolvedIngestOptions } from "../options/resolve-ingest-options.js";

/** An ingest's parse workers, started when the first file needs them. */
export interface LazyParsePool {
  /** The pool once started, else undefined. */
  readonly current: ParsePool | undefined;
  /** Starts the pool unless it was started or found unavailable; the pool, or undefined where no worker can run. */
  start(): ParsePool | undefined;
  /** Stops the workers, if started; pending parses reject. */
  close(): Promise<void> | undefined;
}

/** A pool of `workers` parse workers, not started yet (see `createParsePool`). */
export function createLazyParsePool(workers: number, options: ResolvedIngestOptions): LazyParsePool {
  let pool: ParsePool | undefined;
  let poolUnavailable = false;
  return {
    get current(): ParsePool | undefined {
      return pool;
    },
    start(): ParsePool | undefined {
      if (pool !== undefined || poolUnavailable) return pool;
      pool = createParsePool(workers, options);
      poolUnavailable = pool === undefined;
      return pool;
    },
    close: () => pool?.close(),
  };
}
