import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { EvidenceBlock, RelevanceLevel } from "@lookup-knowledge/core";
import type { PostprocessErrorCode } from "./postprocess-error-code.js";

function format(score: number): string {
  return score.toFixed(2);
}

/**
 * How well L1 supports the evidence (R22), from the port's own scores only: rank scores and
 * L0 boosts never count, so hints cannot make weak evidence look strong.
 *
 * - No block has a score: `unscored`.
 * - Top score at or above the high mark (`threshold + (1 - threshold) / 2`): `high`.
 * - Top score at or above the reference threshold: `medium`.
 * - Below it: `low` (the retriever never returns such evidence as found; callers that
 *   assess blocks themselves are told plainly).
 */
export function assessRelevance(
  blocks: EvidenceBlock[],
  options: { referenceThreshold: number },
): { relevanceLevel: Exclude<RelevanceLevel, "none">; reason: string } {
  const threshold = options.referenceThreshold;
  if (typeof threshold !== "number" || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new LookupKnowledgeError<PostprocessErrorCode>({
      code: "invalid_argument",
      message: `referenceThreshold must be a number in 0..1, got ${String(threshold)}`,
    });
  }
  let top: number | undefined;
  for (const block of blocks) {
    const score = block.score;
    if (typeof score === "number" && Number.isFinite(score) && (top === undefined || score > top)) top = score;
  }
  if (top === undefined) {
    return {
      relevanceLevel: "unscored",
      reason: "The search port gave no similarity scores, so how well the evidence matches cannot be measured.",
    };
  }
  const high = threshold + (1 - threshold) / 2;
  if (top >= high) {
    return {
      relevanceLevel: "high",
      reason: `Top similarity ${format(top)} is at or above the high mark ${format(high)} (reference threshold ${format(threshold)}).`,
    };
  }
  if (top >= threshold) {
    return {
      relevanceLevel: "medium",
      reason: `Top similarity ${format(top)} is at or above the reference threshold ${format(
        threshold,
      )} but below the high mark ${format(high)}.`,
    };
  }
  return {
    relevanceLevel: "low",
    reason: `Top similarity ${format(top)} is below the reference threshold ${format(threshold)}; the evidence is weakly supported.`,
  };
}
