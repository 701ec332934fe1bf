import type { DenseWeights } from "@lookup-knowledge/search-port/local";
import {
  chooseOnDevelopment,
  leaveOneOutChoice,
  type LeftOutChoice,
  type ParameterMeasure,
  type ParameterSpace,
} from "./choose-on-development.js";

/** The dense weights each of the port's two fusion weights is chosen among: 0 to 0.5 in steps of 0.05. */
export const fusionWeightGrid = Array.from({ length: 11 }, (_, index) => index / 20);

/** One set's nDCG@10 of the port's hybrid ranking at one pair of weights, on each half. */
export type FusionMeasure = ParameterMeasure<DenseWeights>;

/** Pairs named `denseWeight/cjkDenseWeight`; the smaller weights first (the query embedded for less of the say). */
const fusionSpace: ParameterSpace<DenseWeights> = {
  name: (weights) => `${weights.denseWeight}/${weights.cjkDenseWeight}`,
  order: (a, b) => a.denseWeight + a.cjkDenseWeight - (b.denseWeight + b.cjkDenseWeight) || a.denseWeight - b.denseWeight,
};

/**
 * The weights with the best mean nDCG@10 over the development halves of the sets kept (each
 * set counts once, whatever its size); ties go to the smaller weights. Undefined when no set is kept.
 */
export function chooseFusionWeights(
  measures: readonly FusionMeasure[],
  keep: (set: string) => boolean = () => true,
): DenseWeights | undefined {
  return chooseOnDevelopment(measures, fusionSpace, keep);
}

/** Leave one knowledge base out: the weights each set would get from the others' development halves; the baseline is weight 0 (BM25). */
export function leaveOneOutFusion(measures: readonly FusionMeasure[], current: DenseWeights): Array<LeftOutChoice<DenseWeights>> {
  return leaveOneOutChoice(measures, fusionSpace, current, { denseWeight: 0, cjkDenseWeight: 0 });
}
