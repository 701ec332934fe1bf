import { parseOptions } from "@lookup-knowledge/core";
import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import { answerabilitySignalNames, type AnswerabilitySignalName, type AnswerabilitySignals } from "./answerability-signals.js";

/**
 * A logistic model of "the best hit answers this query": `score = 1 / (1 + e^-z)` with
 * `z = bias + sum(weights[signal] * signals[signal]) + sum(interactions["a*b"] * signals[a] * signals[b])`
 * over the signals of `answerabilitySignals`: first-order terms and, optionally, products of
 * two signals (so one signal can matter more when another is high: lexical share counts for
 * more on a query of rare words). Fitted by `fitAnswerabilityModel`; the default is
 * `defaultAnswerabilityModel` (README, "Score").
 */
export interface AnswerabilityModel {
  kind: "logistic";
  /** Bumped whenever the parameters are refitted; part of the name in traces. */
  version: number;
  bias: number;
  /** Signals without a weight count 0. */
  weights: Partial<Record<AnswerabilitySignalName, number>>;
  /** Weights of signal products, keyed `"a*b"` (two signal names, in `answerabilitySignalNames` order); absent ones count 0. */
  interactions?: Partial<Record<InteractionName, number>>;
  /** What the parameters were fitted on, for people. */
  fittedOn?: string;
  /**
   * The threshold its judgements are meant to be read at (its operating point, 0..1): the
   * port names it (`referenceThreshold`) and a retriever whose settings do not set
   * `rag.reference-threshold` compares the judgement with it.
   */
  referenceThreshold?: number;
}

/** A product of two signals, `"a*b"`, `a` before `b` in `answerabilitySignalNames`. */
export type InteractionName = `${AnswerabilitySignalName}*${AnswerabilitySignalName}`;

/** Every product of two distinct signals, in a fixed order: the interactions a model may weigh. */
export function interactionPairs(
  names: readonly AnswerabilitySignalName[] = answerabilitySignalNames,
): Array<[AnswerabilitySignalName, AnswerabilitySignalName]> {
  const ordered = answerabilitySignalNames.filter((name) => names.includes(name));
  const pairs: Array<[AnswerabilitySignalName, AnswerabilitySignalName]> = [];
  ordered.forEach((left, index) => {
    for (const right of ordered.slice(index + 1)) pairs.push([left, right]);
  });
  return pairs;
}

const interactionNames = new Set<string>(interactionPairs().map(([left, right]) => `${left}*${right}`));

/** Parameters beyond this size only make the score overflow; fitted ones stay far below it. */
const largestParameter = 1000;
// Built, and zod loaded, on first use (issue 36 item 5: a process that never reads a model, as
// a lookup with the default one, loads no zod).
const modelSchema = schemaOnDemand((z) => {
  const finite = z
    .number()
    .refine(Number.isFinite, { error: "expected a finite number" })
    .refine((value) => Math.abs(value) <= largestParameter, {
      error: `expected a number from -${largestParameter} to ${largestParameter}`,
    });
  return z
    .strictObject({
      kind: z.literal("logistic"),
      version: z.number().int().min(0),
      bias: finite,
      weights: z.partialRecord(z.enum(answerabilitySignalNames), finite),
      interactions: z
        .record(
          z.string().refine((name) => interactionNames.has(name), {
            error: (issue) => `${JSON.stringify(issue.input)} is not two signal names joined by "*", in signal order`,
          }),
          finite,
        )
        .optional(),
      fittedOn: z.string().max(2000).optional(),
      referenceThreshold: z.number().min(0).max(1).optional(),
    })
    .transform(
      ({ fittedOn, interactions, referenceThreshold, ...rest }): AnswerabilityModel => ({
        ...rest,
        ...(interactions === undefined ? {} : { interactions: interactions as Partial<Record<InteractionName, number>> }),
        ...(fittedOn === undefined ? {} : { fittedOn }),
        ...(referenceThreshold === undefined ? {} : { referenceThreshold }),
      }),
    );
});

/** Reads an answerability model from outside data (a settings or calibration file); a bad one is refused naming the field. */
export function parseAnswerabilityModel(value: unknown, key = "answerability"): AnswerabilityModel {
  return parseOptions(modelSchema(), value, key);
}

/**
 * An option that takes an answerability model or `false` (no judgement), as the local port's
 * `answerability`: a model is checked by the schema `parseAnswerabilityModel` reads with, each
 * bad field refused under its own name (`answerability.kind`); `false` stays `false`.
 */
export const answerabilityOptionSchema = schemaOnDemand((z) =>
  z.custom<AnswerabilityModel | false>().transform((value, context) => {
    if (value === false) return false;
    const parsed = modelSchema().safeParse(value);
    if (parsed.success) return parsed.data;
    for (const { message, path } of parsed.error.issues) context.issues.push({ code: "custom", message, path, input: value });
    return z.NEVER;
  }),
);

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
  for (const [name, weight] of Object.entries(model.interactions ?? {})) {
    const star = name.indexOf("*");
    const left = signals[name.slice(0, star) as AnswerabilitySignalName];
    const right = signals[name.slice(star + 1) as AnswerabilitySignalName];
    if (weight !== undefined && left !== undefined && right !== undefined) z += weight * left * right;
  }
  if (Number.isNaN(z)) return 0;
  return 1 / (1 + Math.exp(-Math.max(-50, Math.min(50, z))));
}
