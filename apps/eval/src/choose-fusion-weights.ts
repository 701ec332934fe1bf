import type { DenseWeights } from "@lookup-knowledge/search-port/local";
import { knowledgeBaseOf } from "./leave-one-out.js";

/** The dense weights each of the port's two fusion weights is chosen among: 0 to 0.5 in steps of 0.05. */
export const fusionWeightGrid = Array.from({ length: 11 }, (_, index) => index / 20);

/** One set's nDCG@10 of the port's hybrid ranking at one pair of weights, on each half. */
export interface FusionMeasure {
  set: string;
  weights: DenseWeights;
  dev: number;
  test: number;
}

const same = (a: DenseWeights, b: DenseWeights) =>
  Math.abs(a.denseWeight - b.denseWeight) < 1e-9 && Math.abs(a.cjkDenseWeight - b.cjkDenseWeight) < 1e-9;
const key = (weights: DenseWeights) => `${weights.denseWeight}/${weights.cjkDenseWeight}`;

/**
 * The weights with the best mean nDCG@10 over the development halves of the sets kept (each
 * set counts once, whatever its size); ties go to the smaller weights (the query embedded
 * for less of the say). Undefined when no set is kept.
 */
export function chooseFusionWeights(
  measures: readonly FusionMeasure[],
  keep: (set: string) => boolean = () => true,
): DenseWeights | undefined {
  const candidates = new Map<string, DenseWeights>();
  for (const measure of measures) candidates.set(key(measure.weights), measure.weights);
  const ordered = [...candidates.values()].sort(
    (a, b) => a.denseWeight + a.cjkDenseWeight - (b.denseWeight + b.cjkDenseWeight) || a.denseWeight - b.denseWeight,
  );
  let best: { weights: DenseWeights; mean: number } | undefined;
  for (const weights of ordered) {
    const kept = measures.filter((measure) => same(measure.weights, weights) && keep(measure.set));
    if (kept.length === 0) continue;
    const mean = kept.reduce((sum, measure) => sum + measure.dev, 0) / kept.length;
    if (best === undefined || mean > best.mean + 1e-9) best = { weights, mean };
  }
  return best?.weights;
}

/** For each set: the weights chosen without its knowledge base, and its test nDCG@10 there, at `current` and at weight 0 (BM25). */
export interface LeftOutFusion {
  set: string;
  chosen: DenseWeights;
  test: number;
  atCurrent: number;
  bm25: number;
}

/** Leave one knowledge base out: the weights each set would get from the others' development halves. */
export function leaveOneOutFusion(measures: readonly FusionMeasure[], current: DenseWeights): LeftOutFusion[] {
  const sets = [...new Set(measures.map((measure) => measure.set))];
  const at = (set: string, weights: DenseWeights) => {
    const found = measures.find((measure) => measure.set === set && same(measure.weights, weights));
    if (found === undefined) throw new Error(`${set} was not measured at ${key(weights)} (denseWeight/cjkDenseWeight): put it on the grid`);
    return found.test;
  };
  return sets.map((set) => {
    const chosen = chooseFusionWeights(measures, (other) => knowledgeBaseOf(other) !== knowledgeBaseOf(set));
    if (chosen === undefined) throw new Error(`no other knowledge base to choose weights for ${set} from`);
    return { set, chosen, test: at(set, chosen), atCurrent: at(set, current), bm25: at(set, { denseWeight: 0, cjkDenseWeight: 0 }) };
  });
}
