import { scoreAnswerability, type AnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { fitOnDevelopment } from "./answerability-fit.js";
import type { AnswerabilitySample } from "./answerability-samples.js";
import type { Split } from "./split.js";

/** The knowledge base a set asks: `apisix-en` and `apisix-zh` are one (the same pages in two languages). */
export function knowledgeBaseOf(name: string): string {
  return name.replace(/-(en|zh)$/, "");
}

/** The samples of every knowledge base but `set`'s: its pages in another language and its questions asked of other sets left out too. */
function samplesWithout(set: string, samples: readonly AnswerabilitySample[]): AnswerabilitySample[] {
  const base = knowledgeBaseOf(set);
  return samples.filter((sample) => knowledgeBaseOf(sample.set) !== base && knowledgeBaseOf(sample.asked) !== base);
}

/** The answerability model fitted on the development halves of every knowledge base but `set`'s. */
export function fitWithout(set: string, samples: readonly AnswerabilitySample[], version: number): AnswerabilityModel {
  const others = samplesWithout(set, samples);
  const names = [...new Set(others.map((sample) => sample.set))];
  return fitOnDevelopment(others, { version, fittedOn: `development halves of ${names.join(", ")}` });
}

/**
 * `fitWithout` with its own recall-first threshold, chosen as the shipped one is but among the
 * other knowledge bases only (each judged by a model fitted without it and without `set`), so
 * nothing of `set` decides either the model or its operating point.
 */
export function fitWithoutAndChooseThreshold(set: string, samples: readonly AnswerabilitySample[], version: number): AnswerabilityModel {
  const others = samplesWithout(set, samples);
  const { threshold } = recallFirstThreshold(judgedLeftOut(others, "dev", version));
  return { ...fitWithout(set, samples, version), referenceThreshold: threshold };
}

/** The thresholds the recall-first operating point is chosen among: 0.50 down to 0.01, in steps of 0.01. */
export const operatingPointGrid = Array.from({ length: 50 }, (_, index) => (50 - index) / 100);
/** The share of answerable questions the operating point must find on knowledge bases outside the fit. */
export const recallTarget = 0.97;

/** Each set's questions of one half judged by a model fitted without that set (leave-one-knowledge-base-out). */
export function judgedLeftOut(
  samples: readonly AnswerabilitySample[],
  split: Split,
  version: number,
): Array<{ sample: AnswerabilitySample; score: number }> {
  const judged: Array<{ sample: AnswerabilitySample; score: number }> = [];
  for (const set of new Set(samples.map((sample) => sample.set))) {
    const model = fitWithout(set, samples, version);
    for (const sample of samples) {
      if (sample.set !== set || sample.split !== split) continue;
      judged.push({ sample, score: sample.signals === undefined ? 0 : scoreAnswerability(model, sample.signals) });
    }
  }
  return judged;
}

/**
 * Recall first (issue 32): the highest threshold of `operatingPointGrid` at which, on the
 * development halves, each set's answerable questions judged by a model fitted without its
 * knowledge base are found `recallTarget` of the time on average over the sets (each set
 * weighing the same); the lowest threshold of the grid when none reaches it. Questions it
 * lets through below the judgement's `low` mark come back with relevance low, so what the
 * model is told not to trust does not change; what changes is that they are no longer hidden.
 */
export function recallFirstThreshold(judged: ReadonlyArray<{ sample: AnswerabilitySample; score: number }>): {
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
