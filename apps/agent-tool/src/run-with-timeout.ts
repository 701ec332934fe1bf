import { TimeoutError } from "@lookup-knowledge/core";

/**
 * Runs `operation` with a signal that aborts when the caller's signal aborts or when
 * `timeoutMs` passes. A port that ignores the signal is still abandoned on time: the
 * returned promise settles either way.
 */
export async function runWithTimeout<T>(
  operation: (signal: AbortSignal) => Promise<T>,
  options: { timeoutMs: number; signal?: AbortSignal; operationName: string },
): Promise<T> {
  const controller = new AbortController();
  const outer = options.signal;
  if (outer?.aborted) throw outer.reason;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onOuterAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TimeoutError({ operation: options.operationName, timeoutMs: options.timeoutMs });
      controller.abort(error);
      reject(error);
    }, options.timeoutMs);
    if (outer) {
      onOuterAbort = () => {
        controller.abort(outer.reason);
        reject(outer.reason);
      };
      outer.addEventListener("abort", onOuterAbort, { once: true });
    }
  });
  try {
    const running = new Promise<T>((resolve) => resolve(operation(controller.signal)));
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    if (outer && onOuterAbort) outer.removeEventListener("abort", onOuterAbort);
  }
}
