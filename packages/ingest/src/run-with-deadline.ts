import { Script } from "node:vm";

/** Where the script below finds the work it runs: a key no other code uses. */
const slot = Symbol.for("lookup-knowledge.ingest.run-with-deadline");
const script = new Script(`globalThis[Symbol.for("lookup-knowledge.ingest.run-with-deadline")]()`, {
  filename: "run-with-deadline",
});

/** What became of synchronous work run with a deadline. */
export type DeadlineOutcome<T> = { kind: "done"; value: T } | { kind: "timed_out" } | { kind: "interrupted" };

/**
 * Runs synchronous `work` on the calling thread, stopped by V8 when it runs longer than
 * `timeoutMs` (`timed_out`) or when the process gets SIGINT meanwhile (`interrupted`; the
 * process's own SIGINT handlers are then called before this returns, or, where it has none,
 * the SIGINT is raised again for its default action). Signals other than SIGINT wait for the work to end or time out, so a short timeout
 * bounds how long they wait. Work that is stopped leaves nothing behind but what it had
 * allocated; it must not hold state that outlives the call. An error `work` throws is thrown.
 */
export function runWithDeadline<T>(work: () => T, timeoutMs: number): DeadlineOutcome<T> {
  const global = globalThis as unknown as Record<symbol, (() => T) | undefined>;
  const previous = global[slot];
  global[slot] = work;
  try {
    return { kind: "done", value: script.runInThisContext({ timeout: timeoutMs, breakOnSigint: true }) as T };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "ERR_SCRIPT_EXECUTION_TIMEOUT") return { kind: "timed_out" };
    if (code === "ERR_SCRIPT_EXECUTION_INTERRUPTED") {
      // The deadline took the SIGINT: hand it on at once to the process's own handlers, or,
      // where there are none, raise it again for its default action (the process ends).
      if (process.listenerCount("SIGINT") > 0) process.emit("SIGINT", "SIGINT");
      else process.kill(process.pid, "SIGINT");
      return { kind: "interrupted" };
    }
    throw error;
  } finally {
    global[slot] = previous;
  }
}
