import type { Question } from "./question-set.js";

/** Which half of a question set a question belongs to. */
export type Split = "dev" | "test";

/**
 * Questions whose id ends in an odd number are the development half (calibration is fitted
 * on them, `pnpm --filter @lookup-knowledge/eval run calibrate`); even ones are the held-out
 * test half the closing figures are quoted on. An id without a trailing number is refused.
 */
export function splitOf(question: Pick<Question, "id">): Split {
  const match = /(\d+)$/.exec(question.id);
  if (!match?.[1]) throw new Error(`question id ${JSON.stringify(question.id)} does not end in a number, so it has no split`);
  return Number(match[1]) % 2 === 1 ? "dev" : "test";
}
