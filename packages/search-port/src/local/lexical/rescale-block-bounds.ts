import type { BlockBounds } from "./term-score-bounds.js";

/**
 * A relative slack for the float32 rounding of both norms (2^-24 each) and the sums that use
 * them: the rescaled bound is loosened by it, never tightened.
 */
const roundingSlack = 1e-6;

/**
 * Block bounds stored with one average length (a segment's own, when it was written) made
 * valid for another (that of every live record of a composed index), without the postings.
 *
 * A stored bound `v` is the largest `x = tf / (tf + n)` of a block, `n = k1 * (1 - b + b *
 * length / stored)`. With `average` instead the norm is `n' = k1 * (1 - b) + (n - k1 * (1 -
 * b)) * r`, `r = stored / average`, so `n' >= n * min(r, 1)`, and the posting's new part
 * `tf / (tf + n')` is at most `x / (x + min(r, 1) * (1 - x))`, which grows with `x`: at most
 * `v / (v + min(r, 1) * (1 - v))`. A segment written with about the average (most of an
 * index's records) keeps about its bounds; a small one written with a longer average than
 * the index's gets looser ones. The block's first and last slots are kept as they are.
 */
export function rescaledBlockBounds(stored: BlockBounds, storedAverage: number, average: number): BlockBounds {
  const ratio = Math.min(1, storedAverage / average) * (1 - roundingSlack);
  const blocks = new Float64Array(stored.blocks.length);
  for (let block = 0; block < blocks.length; block += 1) {
    const bound = stored.blocks[block] as number;
    blocks[block] = bound / (bound + ratio * (1 - bound));
  }
  return { blocks, blockFirst: stored.blockFirst, blockLast: stored.blockLast };
}
