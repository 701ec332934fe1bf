import { ConfigurationError } from "@lookup-knowledge/core";
import { z } from "zod";
import { answerabilitySignalNames, type AnswerabilitySignalName, type AnswerabilitySignals } from "./answerability-signals.js";

/**
 * A logistic model of "the best hit answers this query": `score = 1 / (1 + e^-z)` with
 * `z = bias + sum(weights[signal] * signals[signal])` over the signals of
 * `answerabilitySignals`. Fitted by `fitAnswerabilityModel`; the default is
 * `defaultAnswerabilityModel` (README, "Score").
 */
export interface AnswerabilityModel {
  kind: "logistic";
  /** Bumped whenever the parameters are refitted; part of the name in traces. */
  version: number;
  bias: number;
  /** Signals without a weight count 0. */
  weights: Partial<Record<AnswerabilitySignalName, number>>;
  /** What the parameters were fitted on, for people. */
  fittedOn?: string;
}

/** Parameters beyond this size only make the score overflow; fitted ones stay far below it. */
const largestParameter = 1000;
const finite = z
  .number()
  .refine(Number.isFinite, { error: "expected a finite number" })
  .refine((value) => Math.abs(value) <= largestParameter, { error: `expected a number from -${largestParameter} to ${largestParameter}` });

const modelSchema = z.strictObject({
  kind: z.literal("logistic"),
  version: z.number().int().min(0),
  bias: finite,
  weights: z.partialRecord(z.enum(answerabilitySignalNames), finite),
  fittedOn: z.string().max(2000).optional(),
});

/** Reads an answerability model from outside data (a settings or calibration file); a bad one is refused naming the field. */
export function parseAnswerabilityModel(value: unknown, key = "answerability"): AnswerabilityModel {
  const parsed = modelSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.length ? `${key}.${issue.path.join(".")}` : key;
    throw new ConfigurationError({ key: path, value, reason: issue?.message ?? "not an answerability model" });
  }
  const { fittedOn, ...rest } = parsed.data;
  return fittedOn === undefined ? rest : { ...rest, fittedOn };
}

/** The name a model's judgements carry in traces. */
export function answerabilityModelName(model: AnswerabilityModel): string {
  return `answerability-${model.kind}@${model.version}`;
}

/** The model's 0..1 score for these signals; 0 when they make no finite number. */
export function scoreAnswerability(model: AnswerabilityModel, signals: AnswerabilitySignals): number {
  let z = model.bias;
  for (const name of answerabilitySignalNames) {
    const weight = model.weights[name];
    if (weight !== undefined) z += weight * signals[name];
  }
  if (Number.isNaN(z)) return 0;
  return 1 / (1 + Math.exp(-Math.max(-50, Math.min(50, z))));
}
