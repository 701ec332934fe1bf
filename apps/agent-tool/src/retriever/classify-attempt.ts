import type { AttemptOutcome, EvidenceBlock, FallbackReason, RetrievalAttempt } from "@lookup-knowledge/core";

/**
 * How much of the caller's scope's best match an L0-filtered attempt must keep to be used
 * (`filterShare`, its best fused score over the scope's best): within 5%.
 */
export const steeredFilterMinShare = 0.95;

/**
 * The outcome of one L1 attempt (R8, R9): no candidates at all, candidates but no evidence
 * left after post-processing, evidence whose best score is below `rag.reference-threshold`
 * (low quality), or usable evidence. An L0-filtered attempt whose port says it left a better
 * match of the caller's scope out (`filterShare` below `steeredFilterMinShare`) is low quality
 * too, so the unfiltered retry runs. A failed search is classified where it is caught.
 */
export function classifyAttempt(input: {
  candidateCount: number;
  evidenceCount: number;
  topScore: number | undefined;
  referenceThreshold: number;
  /** Set only for an L0-filtered attempt that left too much out (`leftOutShare`). */
  leftOutShare?: number | undefined;
}): Exclude<AttemptOutcome, "error"> {
  if (input.candidateCount === 0) return "no_candidates";
  if (input.evidenceCount === 0) return "no_evidence";
  if (input.topScore !== undefined && input.topScore < input.referenceThreshold) return "low_quality";
  if (input.leftOutShare !== undefined) return "low_quality";
  return "usable";
}

/**
 * The share of its caller's scope's best match an L0-filtered attempt kept, when it kept too
 * little to be used (below `steeredFilterMinShare`); undefined otherwise. The one reading of
 * that rule: `runAttempt` records its result on the refused attempt (`leftOutShare`), and
 * `explain`, the no-evidence message and the calibration table read that record.
 */
export function leftOutShare(attempt: Pick<RetrievalAttempt, "l0Filter" | "answerability">): number | undefined {
  const share = attempt.answerability?.signals["filterShare"];
  return attempt.l0Filter !== undefined && share !== undefined && share < steeredFilterMinShare ? share : undefined;
}

/** The best score among the evidence that survived post-processing, if any block has one. */
export function topEvidenceScore(blocks: readonly EvidenceBlock[]): number | undefined {
  let top: number | undefined;
  for (const block of blocks) {
    if (block.score !== undefined && (top === undefined || block.score > top)) top = block.score;
  }
  return top;
}

/** Why an L0-filtered attempt was not used and the unfiltered retry ran (R9). */
export function fallbackReasonOf(outcome: AttemptOutcome): FallbackReason {
  switch (outcome) {
    case "error":
      return "filtered_vector_error";
    case "low_quality":
      return "filtered_vector_low_quality";
    default:
      return "filtered_vector_no_evidence";
  }
}
