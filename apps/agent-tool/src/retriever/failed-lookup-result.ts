import { describeValue, emptyL0Hints, errorMessage, type LookupResult, type RagConfig } from "@lookup-knowledge/core";

/** The result recorded for a call that did not run (a bad query or filter, the caller's abort). */
export function failedLookupResult(config: Readonly<RagConfig>, query: unknown, error: unknown): LookupResult {
  const received = typeof query === "string" ? query : describeValue(query);
  return {
    found: false,
    evidenceStatus: "no_evidence",
    query: received,
    message: `The lookup did not run: ${errorMessage(error)}`,
    evidenceBlocks: [],
    retrievalTrace: {
      query: { received, normalized: "", transformed: "", truncated: false, addedTerms: [] },
      hints: emptyL0Hints(),
      l1Enabled: config.l1Enabled,
      retrievalLayer: "none",
      attempts: [],
      candidateCount: 0,
      evidenceCount: 0,
      referenceThreshold: config.referenceThreshold,
    },
    relevanceLevel: "none",
    completenessHint: { status: "none", notes: [] },
  };
}
