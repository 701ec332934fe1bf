import { scoreAnswerability, type AnswerabilityModel, type AnswerabilitySignalName } from "@lookup-knowledge/search-port/local";
import { fitOnDevelopment } from "./answerability-fit.js";
import type { AnswerabilitySample } from "./answerability-samples.js";
import type { Split } from "./split.js";

/** The knowledge base a set asks: `apisix-en` and `apisix-zh` are one (the same pages in two languages). */
export function knowledgeBaseOf(name: string): string {
  return name.replace(/-(en|zh)$/, "");
}

/** The thresholds the recall-first operating point is chosen among: 0.50 down to 0.01, in steps of 0.01. */
export const operatingPointGrid = Array.from({ length: 50 }, (_, index) => (50 - index) / 100);
/** The share of answerable questions the operating point must find on knowledge bases outside the fit. */
export const recallTarget = 0.97;

/** A sample judged by a model that did not see its knowledge base. */
export interface JudgedSample {
  sample: AnswerabilitySample;
  score: number;
}

/** Leave-one-knowledge-base-out fits over one collection of samples, each fit made once. */
export interface LeaveOneOut {
  /** The model fitted on the development halves of every knowledge base but `set`'s. */
  fitWithout(set: string): AnswerabilityModel;
  /**
   * `fitWithout` with its own recall-first threshold, chosen as the shipped one is but among
   * the other knowledge bases only (each judged by a model fitted without it and without
   * `set`), so nothing of `set` decides either the model or its operating point.
   */
  fitWithoutAndChooseThreshold(set: string): AnswerabilityModel;
  /** Each set's questions of one half judged by a model fitted without that set's knowledge base. */
  judgedLeftOut(split: Split): JudgedSample[];
}

/**
 * Leave one knowledge base out over `samples`. A fit leaves out every sample whose index or
 * question comes from a left-out base (the same pages in another language and the base's
 * questions asked of other sets included). Fits are kept by the bases they leave out, so the
 * nested fits of the thresholds (and `apisix-en` beside `apisix-zh`) are made once. `signals`:
 * the signals the fits weigh (default `fittedSignalNames`).
 */
export function leaveOneOut(
  samples: readonly AnswerabilitySample[],
  version: number,
  signals?: readonly AnswerabilitySignalName[],
): LeaveOneOut {
  const fits = new Map<string, AnswerabilityModel>();
  const fitExcluding = (bases: readonly string[]): AnswerabilityModel => {
    const left = [...new Set(bases)].sort();
    const key = left.join("|");
    const cached = fits.get(key);
    if (cached) return cached;
    const kept = samples.filter((sample) => !left.includes(knowledgeBaseOf(sample.set)) && !left.includes(knowledgeBaseOf(sample.asked)));
    const names = [...new Set(kept.map((sample) => sample.set))];
    const model = fitOnDevelopment(kept, {
      version,
      fittedOn: `development halves of ${names.join(", ")}`,
      ...(signals ? { signals } : {}),
    });
    fits.set(key, model);
    return model;
  };
  const judged = (excluded: readonly string[], split: Split): JudgedSample[] => {
    const result: JudgedSample[] = [];
    const sets = new Set(samples.filter((sample) => !excluded.includes(knowledgeBaseOf(sample.set))).map((sample) => sample.set));
    for (const set of sets) {
      const model = fitExcluding([...excluded, knowledgeBaseOf(set)]);
      for (const sample of samples) {
        if (sample.set !== set || sample.split !== split || excluded.includes(knowledgeBaseOf(sample.asked))) continue;
        result.push({ sample, score: sample.signals === undefined ? 0 : scoreAnswerability(model, sample.signals) });
      }
    }
    return result;
  };
  return {
    fitWithout: (set) => fitExcluding([knowledgeBaseOf(set)]),
    fitWithoutAndChooseThreshold: (set) => ({
      ...fitExcluding([knowledgeBaseOf(set)]),
      referenceThreshold: recallFirstThreshold(judged([knowledgeBaseOf(set)], "dev")).threshold,
    }),
    judgedLeftOut: (split) => judged([], split),
  };
}

/**
 * Recall first (issue 32): the highest threshold of `operatingPointGrid` at which, on the
 * development halves, each set's answerable questions judged by a model fitted without its
 * knowledge base are found `recallTarget` of the time on average over the sets (each set
 * weighing the same); the lowest threshold of the grid when none reaches it. Questions it
 * lets through below the judgement's `low` mark come back with relevance low, so what the
 * model is told not to trust does not change; what changes is that they are no longer hidden.
 */
export function recallFirstThreshold(judged: readonly JudgedSample[]): {
  threshold: number;
  found: Array<{ threshold: number; found: number }>;
} {
  const answerable = judged.filter((entry) => entry.sample.group === "answerable");
  const sets = [...new Set(answerable.map((entry) => entry.sample.set))];
  const found = operatingPointGrid.map((threshold) => {
    const shares = sets.map((set) => {
      const mine = answerable.filter((entry) => entry.sample.set === set);
      return mine.filter((entry) => entry.score >= threshold).length / Math.max(1, mine.length);
    });
    return { threshold, found: shares.reduce((sum, share) => sum + share, 0) / Math.max(1, shares.length) };
  });
  const reached = found.find((entry) => entry.found >= recallTarget);
  return { threshold: reached?.threshold ?? (operatingPointGrid.at(-1) as number), found };
}
