/**
 * Who made a vector. An index records the identity of the embedder that filled it and refuses
 * vectors (or queries) from an embedder with another `id`, `version` or `dimension`, since
 * vectors from two embedders do not share a space even when their lengths match.
 */
export interface EmbedderIdentity {
  /** Stable name of the embedding method, e.g. `lookup-knowledge/offline-hash-glove`. */
  id: string;
  /** Changes whenever the same text would get a different vector (method, data or options). */
  version: string;
  /** Length of every vector. */
  dimension: number;
}

/**
 * The identity an embeddings object declares through an `identity` property, or `undefined`
 * when it has none or it is malformed (empty strings, a dimension that is not a positive
 * integer). Any LangChain `Embeddings` can be used; only those that declare an identity can be
 * checked this way, the rest have to be described by the caller.
 */
export function describeEmbedder(embeddings: object): EmbedderIdentity | undefined {
  const identity: unknown = (embeddings as { identity?: unknown }).identity;
  if (identity === null || typeof identity !== "object") return undefined;
  const { id, version, dimension } = identity as Record<string, unknown>;
  if (typeof id !== "string" || id.trim() === "") return undefined;
  if (typeof version !== "string" || version.trim() === "") return undefined;
  if (typeof dimension !== "number" || !Number.isSafeInteger(dimension) || dimension <= 0) return undefined;
  return { id, version, dimension };
}
