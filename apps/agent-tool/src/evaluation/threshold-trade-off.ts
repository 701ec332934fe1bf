import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { AgentToolErrorCode } from "../agent-tool-error-code.js";
import type { QuestionOutcome } from "./evaluate-retriever.js";

/** How a gate at one threshold treats the questions: answerable ones found, out-of-scope ones refused. */
export interface ThresholdRow {
  threshold: number;
  answerableFound: number;
  answerableAsked: number;
  outOfScopeRefused: number;
  outOfScopeAsked: number;
  /** The mean of the found share and the refused share (0.5 each when a kind has no question). */
  balancedAccuracy: number;
}

/** The thresholds the calibration table shows: 0.20 to 0.60 in steps of 0.05. */
export const tableThresholds: readonly number[] = Array.from({ length: 9 }, (_, index) => round(0.2 + index * 0.05));

/** The thresholds a reference threshold is fitted among: 0.01 to 0.99 in steps of 0.01. */
export const fitThresholds: readonly number[] = Array.from({ length: 99 }, (_, index) => round(0.01 + index * 0.01));

/**
 * The trade-off at each threshold, from outcomes whose `gateScore` was taken at threshold 1
 * (so every retry ran): a question is found at `t` when its gate score is at least `t`,
 * which is what the retriever decides at `rag.reference-threshold` = `t` (R9-R11).
 */
export function thresholdTradeOff(outcomes: readonly QuestionOutcome[], thresholds: readonly number[]): ThresholdRow[] {
  const answerable = outcomes.filter((outcome) => outcome.answerable);
  const outOfScope = outcomes.filter((outcome) => !outcome.answerable);
  const foundAt = (outcome: QuestionOutcome, threshold: number) => outcome.gateScore !== undefined && outcome.gateScore >= threshold;
  return thresholds.map((threshold) => {
    const answerableFound = answerable.filter((outcome) => foundAt(outcome, threshold)).length;
    const outOfScopeRefused = outOfScope.filter((outcome) => !foundAt(outcome, threshold)).length;
    const share = (part: number, whole: number) => (whole === 0 ? 0.5 : part / whole);
    return {
      threshold,
      answerableFound,
      answerableAsked: answerable.length,
      outOfScopeRefused,
      outOfScopeAsked: outOfScope.length,
      balancedAccuracy: (share(answerableFound, answerable.length) + share(outOfScopeRefused, outOfScope.length)) / 2,
    };
  });
}

/** The threshold that best separates answerable from out-of-scope questions: highest balanced accuracy, ties to the lower threshold. */
export function fitReferenceThreshold(outcomes: readonly QuestionOutcome[], thresholds: readonly number[] = fitThresholds): ThresholdRow {
  const rows = thresholdTradeOff(
    outcomes,
    [...thresholds].sort((a, b) => a - b),
  );
  let best = rows[0];
  if (best === undefined) {
    throw new LookupKnowledgeError<AgentToolErrorCode>({
      code: "invalid_argument",
      message: "fitReferenceThreshold needs at least one threshold",
    });
  }
  for (const row of rows) if (row.balancedAccuracy > best.balancedAccuracy + 1e-12) best = row;
  return best;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
