/**
 * Frequency down-weighting: a word of frequency rank `r` (0 = most frequent) weighs
 * `(r + 1) / (r + 1 + commonRank)`, a smooth inverse frequency under Zipf's law. "the" weighs
 * about 0.003, a word of rank 300 a half, rank 3,000 about 0.9; words the table does not hold
 * (rarer than its 50,000 words, numbers, CJK) weigh 1.
 */
export const commonRank = 300;

/** The weight of the word of table rank `rank` (-1: not in the table, weight 1). */
export function frequencyWeight(rank: number): number {
  return rank < 0 ? 1 : (rank + 1) / (rank + 1 + commonRank);
}
