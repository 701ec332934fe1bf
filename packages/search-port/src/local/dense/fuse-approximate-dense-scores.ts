import { approximateDenseIndexOf } from "./approximate-dense-index.js";
import type { DenseMatrix } from "./dense-matrix.js";
import { denseScore } from "./dense-score.js";
import type { DenseFusionOptions } from "./dense-fusion-options.js";
import { topCandidates } from "./top-candidates.js";
import { topIntegerCandidates } from "./top-integer-candidates.js";

/** The lexical side of a fused pass: every slot's score and the slots the lexical pass touched. */
export interface LexicalSide {
  scores: Float64Array;
  touched: Uint32Array;
  touchedCount: number;
}

/** How many slots an approximate pass re-scores: `candidates` by estimated cosine, and the caller's heap size `limit` (`lexicalCandidates`). */
export interface ApproximateDenseSize {
  candidates: number;
  limit: number;
}

/**
 * The approximate form of `fuseDenseScores` (option `approximateDense`): instead of the
 * exact dense score of every slot, the `candidates` slots with the best estimated cosine
 * (the one-bit sketch, binary-sketch.ts) and, when lexical scores count (`weight` < 1), the
 * slots with the best lexical scores (`lexicalCandidates`), get their exact dense score (the same
 * int8 dot product `DenseMatrix.dots` gives them) and their fused score by the same formula;
 * only those slots go on to `offer`. So every returned score is exact for its slot; what
 * the approximation can cost is a slot outside both lists that the exact pass would rank.
 * The best lexical score is over every touched slot; the best dense score over the re-scored
 * ones: both, and the last bar, are left in `fusion.best` (`freshFusedPass` before), as the
 * exact pass leaves them.
 */
export function fuseApproximateDenseScores(
  vectors: DenseMatrix,
  query: ArrayLike<number>,
  { scores: lexical, touched, touchedCount }: LexicalSide,
  { candidates, limit }: ApproximateDenseSize,
  fusion: DenseFusionOptions,
): void {
  const { weight, denseFloor, best, offer } = fusion;
  const { sketch, rescorer } = approximateDenseIndexOf(vectors);
  const estimates = sketch.estimate(query);
  const { lowest, highest } = sketch.range;
  const dense = topIntegerCandidates(estimates, candidates, lowest, highest);
  const lexicalWeight = 1 - weight;
  let bestLexical = best.lexical;
  for (let index = 0; index < touchedCount; index += 1) {
    const score = lexical[touched[index] as number] as number;
    if (score > bestLexical) bestLexical = score;
  }
  const lexicalTop =
    lexicalWeight > 0 ? topCandidates(lexical, lexicalCandidates(candidates, limit), touched.subarray(0, touchedCount)) : new Int32Array(0);
  const slots = union(dense, lexicalTop);
  const { dots, queryInverseNorm } = rescorer.dotsOf(query, slots);
  const inverseNorms = vectors.inverseNorms;
  let bar = best.bar;
  let bestDense = best.dense;
  for (let index = 0; index < slots.length; index += 1) {
    const slot = slots[index] as number;
    const lexicalScore = lexical[slot] as number;
    // The cosine exactly as `fuseDenseScores` computes it.
    const cosine = Math.fround((dots[index] as number) * (inverseNorms[slot] as number) * queryInverseNorm);
    const denseValue = denseScore(cosine, denseFloor);
    if (denseValue > bestDense) bestDense = denseValue;
    const score = lexicalWeight * lexicalScore + weight * denseValue;
    if (score > 0 && score >= bar) bar = offer(slot, score, lexicalScore, denseValue);
  }
  best.lexical = bestLexical;
  best.dense = bestDense;
  best.bar = bar;
}

/**
 * How many of the best lexical slots are re-scored beside `candidates` dense ones: a tenth
 * (at least the heap's `limit`). Chosen on the dev half of the queries at a million chunks
 * (hybrid, `bench/index-peers/approximate-recall.mjs`): a tenth kept recall@10 at 1.000 with
 * 4,000 and 20,000 candidates, a fortieth fell to 0.954 with 4,000; as many as `candidates`
 * made hybrid search slower than the exact one at 20,000.
 */
export function lexicalCandidates(candidates: number, limit: number): number {
  return Math.max(limit, Math.ceil(candidates / 10));
}

/** The slots of both lists, each once, in increasing order. */
function union(left: Int32Array, right: Int32Array): Int32Array {
  const all = new Int32Array(left.length + right.length);
  all.set(left);
  all.set(right, left.length);
  all.sort();
  let size = 0;
  for (let index = 0; index < all.length; index += 1) {
    if (size === 0 || all[index] !== all[size - 1]) {
      all[size] = all[index] as number;
      size += 1;
    }
  }
  return all.subarray(0, size);
}
