import { Script } from "node:vm";

/** Where the script below finds the work it runs: a key no other code uses. */
const slot = Symbol.for("lookup-knowledge.ingest.run-with-deadline");
const script = new Script(`globalThis[Symbol.for("lookup-knowledge.ingest.run-with-deadline")]()`, {
  filename: "run-with-deadline",
});

/** What became of synchronous work run with a deadline. */
export type DeadlineOutcome<T> = { kind: "done"; value: T } | { kind: "timed_out" };

/**
 * Runs synchronous `work` on the calling thread; V8 stops it when it runs longer than
 * `timeoutMs` (`timed_out`). A signal that arrives meanwhile waits for the work to end or be
 * stopped, so a short timeout bounds how long the process's handlers wait. (No
 * `breakOnSigint`: it takes SIGINT from every thread of the process and, while it swaps the
 * handlers, lets a SIGINT end the process.) Work that is stopped runs no `finally` block: it
 * must not be the first to load a module or leave state half-updated that outlives the call.
 * An error `work` throws is thrown.
 */
export function runWithDeadline<T>(work: () => T, timeoutMs: number): DeadlineOutcome<T> {
  const global = globalThis as unknown as Record<symbol, (() => T) | undefined>;
  const previous = global[slot];
  global[slot] = work;
  try {
    return { kind: "done", value: script.runInThisContext({ timeout: timeoutMs }) as T };
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT") return { kind: "timed_out" };
    throw error;
  } finally {
    global[slot] = previous;
  }
}
