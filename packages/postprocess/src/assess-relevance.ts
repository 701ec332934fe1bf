import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { EvidenceBlock, RelevanceLevel } from "@lookup-knowledge/core";
import type { PostprocessErrorCode } from "./postprocess-error-code.js";

function format(score: number): string {
  return score.toFixed(2);
}

/** A judged probability at or above this reads `high`. */
export const judgedHighMark = 0.8;
/** A judged probability below this (less likely than not to answer) reads `low`. */
export const judgedLowMark = 0.5;

/**
 * How well L1 supports the evidence (R22), from the port's own scores only: rank scores and
 * L0 boosts never count, so hints cannot make weak evidence look strong.
 *
 * When the port judged its best hit (`options.judged`: the answerability probability the
 * gate compared with the threshold), that probability decides: `high` at or above 0.8,
 * `low` below 0.5 (the port thinks the evidence more likely than not fails to answer: a
 * near miss the gate let through so the model can judge it), `medium` between. Otherwise
 * the blocks' own similarity scores decide:
 *
 * - No block has a score: `unscored`.
 * - Top score at or above the high mark (`threshold + (1 - threshold) / 2`): `high`.
 * - Top score at or above the reference threshold: `medium`.
 * - Below it: `low` (the retriever never returns such evidence as found; callers that
 *   assess blocks themselves are told plainly).
 */
export function assessRelevance(
  blocks: EvidenceBlock[],
  options: { referenceThreshold: number; judged?: number | undefined },
): { relevanceLevel: Exclude<RelevanceLevel, "none">; reason: string } {
  const threshold = options.referenceThreshold;
  if (typeof threshold !== "number" || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new LookupKnowledgeError<PostprocessErrorCode>({
      code: "invalid_argument",
      message: `referenceThreshold must be a number in 0..1, got ${String(threshold)}`,
    });
  }
  const judged = options.judged;
  if (typeof judged === "number" && Number.isFinite(judged)) return judgedRelevance(judged);
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

function judgedRelevance(judged: number): { relevanceLevel: Exclude<RelevanceLevel, "none">; reason: string } {
  if (judged >= judgedHighMark) {
    return { relevanceLevel: "high", reason: `The search judged its best match likely to answer (${format(judged)}).` };
  }
  if (judged >= judgedLowMark) {
    return { relevanceLevel: "medium", reason: `The search judged its best match fairly likely to answer (${format(judged)}).` };
  }
  return {
    relevanceLevel: "low",
    reason: `The search judged its best match unlikely to answer (${format(judged)}): the evidence may only touch the question.`,
  };
}
