import { denseScore } from "./dense-score.js";

/** The best lexical and dense scores a fused pass saw, over every slot. */
export interface FusedPassBest {
  lexical: number;
  dense: number;
}

/**
 * One tight pass over every slot's lexical score and the kernel's dot products
 * (`DenseMatrix.dots`): the dense score of each slot (`denseScore` of its cosine), the fused
 * score `(1 - weight) * lexical + weight * dense`, and the best of each. A slot goes on to
 * `offer` only when its fused score is positive and at least the bar that `offer` last
 * returned (0 at first), so the caller's heap sees the few slots that can enter it. Kept
 * apart from the ranking so the engine compiles it once for its typed arrays.
 */
export function fuseDenseScores(
  lexical: Float64Array,
  dots: Int32Array,
  inverseNorms: Float32Array,
  queryInverseNorm: number,
  weight: number,
  denseFloor: number,
  offer: (slot: number, score: number, lexical: number, dense: number) => number,
): FusedPassBest {
  const count = dots.length;
  const lexicalWeight = 1 - weight;
  let bar = 0;
  let bestLexical = 0;
  let bestDense = 0;
  for (let slot = 0; slot < count; slot += 1) {
    const lexicalScore = lexical[slot] as number;
    // The cosine exactly as `DenseMatrix.cosines` stores it (float32).
    const cosine = Math.fround((dots[slot] as number) * (inverseNorms[slot] as number) * queryInverseNorm);
    const dense = denseScore(cosine, denseFloor);
    if (lexicalScore > bestLexical) bestLexical = lexicalScore;
    if (dense > bestDense) bestDense = dense;
    const score = lexicalWeight * lexicalScore + weight * dense;
    if (score > 0 && score >= bar) bar = offer(slot, score, lexicalScore, dense);
  }
  return { lexical: bestLexical, dense: bestDense };
}
