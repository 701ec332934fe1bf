import type { FallbackReason } from "./retrieval-trace.js";

// A record, so that a reason added to FallbackReason cannot be left out here.
const known: Record<FallbackReason, true> = {
  filtered_vector_no_evidence: true,
  filtered_vector_low_quality: true,
  filtered_vector_error: true,
};

/** Every fallback reason a lookup can record: what `traces --reason` and the inspector's `reason` filter accept. */
export const fallbackReasons: readonly FallbackReason[] = Object.freeze(Object.keys(known) as FallbackReason[]);

/** Whether `value` is one of `fallbackReasons`. */
export function isFallbackReason(value: string): value is FallbackReason {
  return Object.hasOwn(known, value);
}
