/**
 * What the number of `similaritySearchWithScore` means for a store:
 * - `"similarity"`: a similarity, higher is better: a cosine (-1..1; `MemoryVectorStore`,
 *   Pinecone cosine indexes) or the dot product of unit vectors. Normalised: clamped to 0..1.
 * - `"cosine-distance"`: `1 - cosine` (0..2, lower is better; LibSQL's `vector_distance_cos`,
 *   pgvector's `<=>`). Normalised: `1 - d`, clamped: the cosine.
 * - `"euclidean-distance"`: `|a - b|` of unit vectors (0..2). Normalised: `1 - d² / 2`,
 *   clamped: the cosine.
 * - `"squared-euclidean-distance"`: `|a - b|²` of unit vectors (0..4; Chroma's default `l2`,
 *   Pinecone euclidean indexes). Normalised: `1 - d / 2`, clamped: the cosine.
 */
export type VectorStoreScoreKind = "similarity" | "cosine-distance" | "euclidean-distance" | "squared-euclidean-distance";

/**
 * A store's score as the port's normalised similarity (0..1, higher is better). For every
 * kind the result is the cosine similarity of the query and the record (assuming unit
 * vectors for the Euclidean kinds), negative cosines at 0, so one threshold means the same
 * thing on every store. A value that is not a finite number gives 0.
 */
export function normalizeVectorStoreScore(raw: number, kind: VectorStoreScoreKind): number {
  if (typeof raw !== "number" || !Number.isFinite(raw)) return 0;
  let similarity: number;
  switch (kind) {
    case "similarity":
      similarity = raw;
      break;
    case "cosine-distance":
      similarity = 1 - raw;
      break;
    case "euclidean-distance":
      similarity = 1 - (raw * raw) / 2;
      break;
    case "squared-euclidean-distance":
      similarity = 1 - raw / 2;
      break;
  }
  return Math.min(1, Math.max(0, similarity));
}
