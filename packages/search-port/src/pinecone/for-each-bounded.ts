import { throwIfAborted } from "../internal/abort.js";

/**
 * Runs `work` on every item with at most `concurrency` at a time. After the first failure no
 * new item starts; the first error is thrown once the running ones have settled.
 */
export async function forEachBounded<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  let failed = false;
  let failure: unknown;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next] as T;
      next += 1;
      try {
        throwIfAborted(signal);
        await work(item);
      } catch (error) {
        if (!failed) {
          failed = true;
          failure = error;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failed) throw failure;
}
