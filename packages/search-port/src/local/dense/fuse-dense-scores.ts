import type { DenseFusionOptions, FusedPassState } from "./dense-fusion-options.js";
import { denseScore } from "./dense-score.js";

/** The state of a fused pass before its first range: nothing seen, bar 0. */
export function freshFusedPass(): FusedPassState {
  return { lexical: 0, dense: 0, bar: 0 };
}

/**
 * One tight pass over the slots `start..end - 1` of every slot's lexical score and the
 * kernel's dot products (`DenseMatrix.dots`): the dense score of each slot (`denseScore` of
 * its cosine), the fused score `(1 - weight) * lexical + weight * dense`, and the best of
 * each, kept in `fusion.best` across calls. A slot goes on to `offer` only when its fused score is
 * positive and at least the bar that `offer` last returned (`best.bar`, 0 at first), so the
 * caller's heap sees the few slots that can enter it. The ranges may come in any order (a
 * chunked scan, `DenseMatrix.scanInChunks`): the bar only rises, so a slot left out could
 * never have entered the heap. Kept apart from the ranking so the engine compiles it once
 * for its typed arrays.
 */
export function fuseDenseScores(
  lexical: Float64Array,
  dots: Int32Array,
  inverseNorms: Float32Array,
  queryInverseNorm: number,
  range: { start: number; end: number },
  fusion: DenseFusionOptions,
): void {
  const { weight, denseFloor, best, offer } = fusion;
  const { start, end } = range;
  const lexicalWeight = 1 - weight;
  let bar = best.bar;
  let bestLexical = best.lexical;
  let bestDense = best.dense;
  for (let slot = start; slot < end; slot += 1) {
    const lexicalScore = lexical[slot] as number;
    // The cosine exactly as `DenseMatrix.cosines` stores it (float32).
    const cosine = Math.fround((dots[slot] as number) * (inverseNorms[slot] as number) * queryInverseNorm);
    const dense = denseScore(cosine, denseFloor);
    if (lexicalScore > bestLexical) bestLexical = lexicalScore;
    if (dense > bestDense) bestDense = dense;
    const score = lexicalWeight * lexicalScore + weight * dense;
    if (score > 0 && score >= bar) bar = offer(slot, score, lexicalScore, dense);
  }
  best.lexical = bestLexical;
  best.dense = bestDense;
  best.bar = bar;
}
