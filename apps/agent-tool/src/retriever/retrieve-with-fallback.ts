import type { FallbackReason, L0Hints, MetadataFilter } from "@lookup-knowledge/core";
import { fallbackReasonOf } from "./classify-attempt.js";
import type { AttemptInput, AttemptRun } from "./run-attempt.js";

export interface FallbackInput {
  /** The query sent on the first attempt (expanded by the hints). */
  transformedQuery: string;
  /** The normalised query: the reranker's query, and the retry's. */
  normalizedQuery: string;
  hints: L0Hints;
  /** The filter the hints derived (R7), if any. */
  l0Filter?: MetadataFilter;
  callerFilter?: MetadataFilter;
  signal?: AbortSignal;
}

export interface FallbackOutcome {
  attempts: AttemptRun[];
  fallbackReason?: FallbackReason;
}

/**
 * L1 retrieval with the filter and retry rules (R7-R12). The first attempt carries the L0
 * filter when the hints derived one. When that filtered attempt is not usable (no candidates,
 * no evidence, low quality or an error), exactly one retry runs without the L0 filter and with
 * the unexpanded query, and the reason is kept. An unfiltered first attempt is final. The
 * caller's filter stays on every attempt (R12).
 */
export async function retrieveWithFallback(
  runAttempt: (input: AttemptInput) => Promise<AttemptRun>,
  input: FallbackInput,
): Promise<FallbackOutcome> {
  const shared = {
    rawQuery: input.normalizedQuery,
    hints: input.hints,
    ...(input.callerFilter ? { callerFilter: input.callerFilter } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  };
  const first = await runAttempt({
    attempt: 1,
    query: input.transformedQuery,
    ...shared,
    ...(input.l0Filter ? { l0Filter: input.l0Filter } : {}),
  });
  if (!input.l0Filter || first.usable) return { attempts: [first] };
  const retry = await runAttempt({ attempt: 2, query: input.normalizedQuery, ...shared });
  return { attempts: [first, retry], fallbackReason: fallbackReasonOf(first.trace.outcome) };
}
