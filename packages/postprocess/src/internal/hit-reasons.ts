import type { HitReason } from "@lookup-knowledge/core";

/**
 * Hit reasons in order, without repeats of the same signal and detail. Lists are short
 * (a handful of reasons), so a linear search beats building keys for a Set.
 */
export function mergeHitReasons(...lists: ReadonlyArray<readonly HitReason[]>): HitReason[] {
  const merged: HitReason[] = [];
  for (const list of lists) {
    for (const reason of list) {
      if (merged.some((kept) => kept.signal === reason.signal && kept.detail === reason.detail)) continue;
      merged.push(reason.term === undefined ? { signal: reason.signal, detail: reason.detail } : { ...reason });
    }
  }
  return merged;
}
