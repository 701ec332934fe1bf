import { describeValue } from "@lookup-knowledge/core";
import type { AttemptSummary } from "../../record/attempt-summary.js";
import { attemptOutcomes, isAttemptOutcome } from "../../record/attempt-outcomes.js";

/**
 * The attempts of a record read back from the database, their `outcome` checked against
 * core's `AttemptOutcome`: `retrieval_details` is JSON that any writer could have filled (a
 * later version with an outcome this one does not know, a hand edit). An attempt whose outcome
 * is not one of them is read as `error`, its `error` saying what was stored, so the record is
 * still listed and shown whole (R29) and no reader meets an outcome outside the union. An
 * entry that is not an object at all (`null`, a number, a list) is read as an `error` attempt
 * numbered by its place, its counts 0 and its `error` saying what was stored. A malformed
 * `topSource` is left out and named in `notes` when given.
 */
export function readStoredAttempts(attempts: readonly unknown[], notes?: string[]): AttemptSummary[] {
  return attempts.map((stored, index) => readTopSource(readStoredAttempt(stored, index), index, notes));
}

/**
 * An attempt's `topSource` (issue 37 item 1) as this version reads it: absent (a record written
 * before it existed) reads as it is; one that is not `{ source: string, title?: string }` is
 * left out, and `notes` (the record's `readNotes`) says what was stored, so no reader shows a
 * page that is not one.
 */
function readTopSource(attempt: AttemptSummary, index: number, notes: string[] | undefined): AttemptSummary {
  const stored: unknown = attempt.topSource;
  if (stored === undefined || isPage(stored)) return attempt;
  const { topSource: _dropped, ...rest } = attempt;
  notes?.push(`retrievalDetails.attempts[${index}].topSource is not { source, title? } (${whatIsWrong(stored)}); left out`);
  return rest;
}

function whatIsWrong(stored: unknown): string {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return `the stored value is ${describeValue(stored)}`;
  const { source, title } = stored as { source?: unknown; title?: unknown };
  return typeof source === "string" ? `its title is ${describeValue(title)}` : `its source is ${describeValue(source)}`;
}

function isPage(value: unknown): value is { source: string; title?: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { source, title } = value as { source?: unknown; title?: unknown };
  return typeof source === "string" && (title === undefined || typeof title === "string");
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
