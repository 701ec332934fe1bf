/** The similarity metric of a Pinecone index. */
export type PineconeMetric = "cosine" | "dotproduct" | "euclidean";

/**
 * Turns a Pinecone score into the port's normalised similarity (0..1, higher is better),
 * assuming unit-length dense vectors (the adapter scales what it writes and asks to unit
 * length; Pinecone's hosted embedding models return unit vectors too):
 * - `cosine`: the cosine similarity itself; negative values become 0;
 * - `dotproduct`: the dot product, which for unit vectors is the cosine, and for a hybrid
 *   query the weighted sum of the dense cosine and the lexical cosine; clamped to 0..1;
 * - `euclidean`: Pinecone reports the squared distance d²; for unit vectors
 *   `1 - d² / 2` is the cosine; clamped to 0..1.
 * So on every metric the score is a cosine similarity, and a threshold means the same thing.
 * A value that is not a finite number gives 0.
 */
export function normalizePineconeScore(raw: number, metric: PineconeMetric): number {
  if (!Number.isFinite(raw)) return 0;
  const similarity = metric === "euclidean" ? 1 - raw / 2 : raw;
  return Math.min(1, Math.max(0, similarity));
}
