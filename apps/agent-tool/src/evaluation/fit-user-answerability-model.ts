import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { fitAnswerabilityModel, type AnswerabilityModel, type AnswerabilitySignals } from "@lookup-knowledge/search-port/local";
import type { EvaluationQuestion } from "./read-question-file.js";
import type { AgentToolErrorCode } from "../agent-tool-error-code.js";

/** A model that weighs nothing: a local port opened with it returns every signal with a constant score. */
export const neutralAnswerabilityModel: AnswerabilityModel = Object.freeze({
  kind: "logistic",
  version: 0,
  bias: 0,
  weights: Object.freeze({}),
});

/** One question's signals: those of the best hit of an unfiltered search, absent when it found no hit at all. */
export interface AnswerabilitySample {
  question: EvaluationQuestion;
  signals?: AnswerabilitySignals;
}

/** Below this many questions of either kind the fit is rough, and is penalised harder. */
export const roughFitBelow = 10;

/**
 * Searches a local port opened with `neutralAnswerabilityModel` and `minScore: 0` for each
 * question (its text as written, no filter, 20 hits) and keeps the answerability signals of
 * the best hit, as the project's own calibration does.
 */
export async function collectAnswerabilitySamples(
  port: KnowledgeSearchPort,
  questions: readonly EvaluationQuestion[],
): Promise<AnswerabilitySample[]> {
  const samples: AnswerabilitySample[] = [];
  for (const question of questions) {
    const [best] = await port.search({ query: question.query, topK: 20 });
    samples.push({ question, ...(best?.answerability ? { signals: best.answerability.signals as AnswerabilitySignals } : {}) });
  }
  return samples;
}

/**
 * Fits the local port's answerability model on a user's questions: answerable against out of
 * scope, each kind weighing the same in total, with an L2 penalty of 4 when either kind has
 * fewer than `roughFitBelow` questions that found a hit (1 otherwise), on the signals that
 * vary among them. Questions without a hit are left out: they are refused whatever the
 * model. Refuses fewer than 2 of either kind. A signal that barely varies among the
 * questions gets a small weight: the fit divides every signal by at least 0.05.
 */
export function fitUserAnswerabilityModel(
  samples: readonly AnswerabilitySample[],
  options: { version: number; fittedOn: string },
): { model: AnswerabilityModel; penalty: number } {
  const usable = samples.filter((sample) => sample.signals !== undefined);
  const answerable = usable.filter((sample) => sample.question.relevant.length > 0).length;
  const outOfScope = usable.length - answerable;
  if (answerable < 2 || outOfScope < 2) {
    throw new LookupKnowledgeError<AgentToolErrorCode>({
      code: "too_few_questions",
      message: `Fitting the answerability model needs at least 2 answerable and 2 out-of-scope questions whose search found a hit; ${answerable} and ${outOfScope} did.`,
    });
  }
  const penalty = Math.min(answerable, outOfScope) < roughFitBelow ? 4 : 1;
  // Each kind sums to half the examples, so the penalty means the same as with unit weights.
  const half = usable.length / 2;
  const examples = usable.map((sample) => {
    const isAnswerable = sample.question.relevant.length > 0;
    return {
      signals: sample.signals as AnswerabilitySignals,
      answerable: isAnswerable,
      weight: half / (isAnswerable ? answerable : outOfScope),
    };
  });
  return { model: fitAnswerabilityModel(examples, { version: options.version, penalty, fittedOn: options.fittedOn }), penalty };
}
