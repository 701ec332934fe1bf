import { describeValue } from "@lookup-knowledge/core";
import type { AttemptSummary } from "../attempt-summary.js";
import { attemptOutcomes, isAttemptOutcome } from "../attempt-outcomes.js";

/**
 * The attempts of a record read back from the database, their `outcome` checked against
 * core's `AttemptOutcome`: `retrieval_details` is JSON that any writer could have filled (a
 * later version with an outcome this one does not know, a hand edit). An attempt whose outcome
 * is not one of them is read as `error`, its `error` saying what was stored, so the record is
 * still listed and shown whole (R29) and no reader meets an outcome outside the union.
 */
export function readStoredAttempts(attempts: readonly unknown[]): AttemptSummary[] {
  return attempts.map(readStoredAttempt);
}

function readStoredAttempt(stored: unknown): AttemptSummary {
  const attempt = stored as AttemptSummary;
  const outcome: unknown = (stored as { outcome?: unknown } | null)?.outcome;
  if (isAttemptOutcome(outcome)) return attempt;
  const note = `the stored outcome ${describeValue(outcome)} is not one of ${attemptOutcomes.join(", ")}`;
  return { ...attempt, outcome: "error", error: typeof attempt.error === "string" ? `${attempt.error} (${note})` : note };
}
