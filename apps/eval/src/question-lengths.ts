import type { AnswerabilitySample, SampleGroup } from "./answerability-samples.js";

/** One set's mean question length, in distinct analysed terms, for each group of questions asked of it. */
export interface QuestionLengths {
  set: string;
  lengths: Partial<Record<SampleGroup, number>>;
}

const groups: readonly SampleGroup[] = ["answerable", "near", "cross"];

/**
 * How long the questions of each group are, per set (read from the `terms` signal, which is
 * ln(1 + distinct terms)). A model that weighs `terms` can tell the groups apart by how
 * their authors wrote them rather than by how well the base matches: near-domain questions
 * written shorter than the answerable ones teach it that short means out of scope. The
 * calibration prints these so that the bias stays in sight. Searches without hits are left out.
 */
export function questionLengths(samples: readonly AnswerabilitySample[]): QuestionLengths[] {
  const sets = [...new Set(samples.map((sample) => sample.set))];
  return sets.map((set) => {
    const lengths: Partial<Record<SampleGroup, number>> = {};
    for (const group of groups) {
      const terms = samples
        .filter((sample) => sample.set === set && sample.group === group && sample.signals !== undefined)
        .map((sample) => Math.expm1(sample.signals?.terms ?? 0));
      if (terms.length > 0) lengths[group] = terms.reduce((sum, value) => sum + value, 0) / terms.length;
    }
    return { set, lengths };
  });
}

/** One line per set: `set: answerable 9.6, near 7.8, cross 21.4`. */
export function questionLengthLines(samples: readonly AnswerabilitySample[]): string[] {
  return questionLengths(samples).map(
    ({ set, lengths }) =>
      `  ${set}: ${groups
        .filter((group) => lengths[group] !== undefined)
        .map((group) => `${group} ${(lengths[group] as number).toFixed(1)}`)
        .join(", ")}`,
  );
}
