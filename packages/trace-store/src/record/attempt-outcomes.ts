import type { AttemptOutcome } from "@lookup-knowledge/core";

/** Core's `AttemptOutcome`s as keys: `satisfies` fails the build when core adds or drops one. */
const known = {
  usable: true,
  no_candidates: true,
  no_evidence: true,
  low_quality: true,
  error: true,
} satisfies Record<AttemptOutcome, true>;

/** Every `AttemptOutcome` core defines. */
export const attemptOutcomes: readonly AttemptOutcome[] = Object.freeze(Object.keys(known) as AttemptOutcome[]);

/** Whether `value` is one of `attemptOutcomes`. */
export function isAttemptOutcome(value: unknown): value is AttemptOutcome {
  return typeof value === "string" && Object.hasOwn(known, value);
}
