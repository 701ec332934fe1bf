/** The best lexical and dense scores a fused pass saw, over every slot. */
export interface FusedPassBest {
  lexical: number;
  dense: number;
}

/** The same across the ranges of a chunked pass, with the bar `offer` last returned. */
export interface FusedPassState extends FusedPassBest {
  bar: number;
}

/**
 * What a fused pass fuses and where its results go, the same for every range of one search:
 * made once per search and passed to each range (`DenseMatrix.fuseRows`, `fuseDenseScores`,
 * `fuseDenseScoresOnKernel`, `fuseApproximateDenseScores`), never per range or per slot.
 */
export interface DenseFusionOptions {
  /** The weight of the dense score in the fused score `(1 - weight) * lexical + weight * dense`, 0..1. */
  weight: number;
  /** The cosine at or below which the dense score is 0 (`denseScore`). */
  denseFloor: number;
  /**
   * The best lexical and dense scores so far and the bar, read at the start of a range and
   * written back at its end (`freshFusedPass` before the first).
   */
  best: FusedPassState;
  /**
   * Takes a slot whose fused score is positive and at least the bar, with its fused, lexical
   * and dense scores, and returns the new bar (the caller's heap's threshold).
   */
  offer: (slot: number, score: number, lexical: number, dense: number) => number;
}
