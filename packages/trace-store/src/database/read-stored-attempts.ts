import { describeValue } from "@lookup-knowledge/core";
import type { AttemptSummary } from "../attempt-summary.js";
import { attemptOutcomes, isAttemptOutcome } from "../attempt-outcomes.js";

/**
 * The attempts of a record read back from the database, their `outcome` checked against
 * core's `AttemptOutcome`: `retrieval_details` is JSON that any writer could have filled (a
 * later version with an outcome this one does not know, a hand edit). An attempt whose outcome
 * is not one of them is read as `error`, its `error` saying what was stored, so the record is
 * still listed and shown whole (R29) and no reader meets an outcome outside the union. An
 * entry that is not an object at all (`null`, a number, a list) is read as an `error` attempt
 * numbered by its place, its counts 0 and its `error` saying what was stored.
 */
export function readStoredAttempts(attempts: readonly unknown[]): AttemptSummary[] {
  return attempts.map(readStoredAttempt);
}

function readStoredAttempt(stored: unknown, index: number): AttemptSummary {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) {
    return {
      attempt: index + 1,
      outcome: "error",
      candidateCount: 0,
      evidenceCount: 0,
      rejectedHits: 0,
      durationMs: 0,
      error: `the stored attempt ${describeValue(stored)} is not an object`,
    };
  }
  const attempt = stored as AttemptSummary;
  const outcome: unknown = (stored as { outcome?: unknown }).outcome;
  if (isAttemptOutcome(outcome)) return attempt;
  const note = `the stored outcome ${describeValue(outcome)} is not one of ${attemptOutcomes.join(", ")}`;
  return { ...attempt, outcome: "error", error: typeof attempt.error === "string" ? `${attempt.error} (${note})` : note };
}
