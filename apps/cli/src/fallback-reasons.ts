import type { FallbackReason } from "@lookup-knowledge/core";

// A record, so that a reason added to FallbackReason cannot be left out here.
const known: Record<FallbackReason, true> = {
  filtered_vector_no_evidence: true,
  filtered_vector_low_quality: true,
  filtered_vector_error: true,
};

/** Every fallback reason a lookup can record: what `traces --reason` accepts. */
export const fallbackReasons = Object.keys(known) as FallbackReason[];
