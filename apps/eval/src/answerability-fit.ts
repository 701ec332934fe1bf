import {
  fitAnswerabilityModel,
  scoreAnswerability,
  type AnswerabilityModel,
  type AnswerabilitySignalName,
} from "@lookup-knowledge/search-port/local";
import type { AnswerabilitySample, SampleGroup } from "./answerability-samples.js";
import type { Split } from "./split.js";

/** The L2 penalty of the fit (on standardised signals). */
export const fitPenalty = 1;

/**
 * Fits one model on the development half of every set at once. Each group of samples
 * (a set's answerable questions, its near misses, another set's questions asked of it)
 * weighs the same in total, and the answerable groups weigh as much together as the
 * unanswerable ones, so neither a large collection nor a large class decides the fit.
 * The model weighs every signal and every product of two (`interactions`, default on).
 */
export function fitOnDevelopment(
  samples: readonly AnswerabilitySample[],
  options: { version: number; signals?: readonly AnswerabilitySignalName[]; fittedOn: string; interactions?: boolean },
): AnswerabilityModel {
  const development = samples.filter((sample) => sample.split === "dev" && sample.signals !== undefined);
  const groupOf = (sample: AnswerabilitySample) => `${sample.set}|${sample.group}`;
  const counts = new Map<string, number>();
  for (const sample of development) counts.set(groupOf(sample), (counts.get(groupOf(sample)) ?? 0) + 1);
  const groups = [...counts.keys()];
  const answerableGroups = groups.filter((group) => group.endsWith("|answerable")).length;
  const otherGroups = groups.length - answerableGroups;
  const examples = development.map((sample) => {
    const answerable = sample.group === "answerable";
    const share = answerable ? 1 / answerableGroups : 1 / otherGroups;
    return { signals: sample.signals!, answerable, weight: (100 * share) / (counts.get(groupOf(sample)) as number) };
  });
  return fitAnswerabilityModel(examples, {
    version: options.version,
    penalty: fitPenalty,
    fittedOn: options.fittedOn,
    interactions: options.interactions ?? true,
    ...(options.signals ? { signals: options.signals } : {}),
  });
}

/** Found (score at or above the threshold) out of asked, per set and group, for one half. */
export interface GateCounts {
  set: string;
  group: SampleGroup;
  found: number;
  asked: number;
}

/** How the model's gate treats one half of the samples at `threshold`; a search without hits is never found. */
export function gateCounts(
  samples: readonly AnswerabilitySample[],
  model: AnswerabilityModel,
  threshold: number,
  split: Split,
): GateCounts[] {
  const counts = new Map<string, GateCounts>();
  for (const sample of samples) {
    if (sample.split !== split) continue;
    const key = `${sample.set}|${sample.group}`;
    const entry = counts.get(key) ?? { set: sample.set, group: sample.group, found: 0, asked: 0 };
    entry.asked += 1;
    if (sample.signals !== undefined && scoreAnswerability(model, sample.signals) >= threshold) entry.found += 1;
    counts.set(key, entry);
  }
  return [...counts.values()];
}

/** Totals over sets: answerable found, near misses refused, cross-collection questions refused. */
export function gateSummary(counts: readonly GateCounts[]): string {
  const total = (group: SampleGroup) =>
    counts
      .filter((entry) => entry.group === group)
      .reduce((sum, entry) => ({ found: sum.found + entry.found, asked: sum.asked + entry.asked }), { found: 0, asked: 0 });
  const answerable = total("answerable");
  const near = total("near");
  const cross = total("cross");
  return (
    `answerable found ${answerable.found}/${answerable.asked} (${percent(answerable.found, answerable.asked)}), ` +
    `near-domain refused ${near.asked - near.found}/${near.asked} (${percent(near.asked - near.found, near.asked)}), ` +
    `cross-collection refused ${cross.asked - cross.found}/${cross.asked} (${percent(cross.asked - cross.found, cross.asked)})`
  );
}

function percent(part: number, whole: number): string {
  return whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
}
