/** BM25 term-frequency saturation (the value Anserini uses for BEIR). */
export const bm25K1 = 0.9;
/** BM25 length normalisation. */
export const bm25B = 0.4;

/**
 * Lucene's BM25 idf, ln(1 + (N - df + 0.5) / (df + 0.5)): always positive. A term that no
 * record holds (df 0) gets the largest idf, so it weighs fully in the query's maximum.
 */
export function bm25Idf(recordCount: number, documentFrequency: number): number {
  return Math.log(1 + (recordCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}
