/**
 * The identity of a chunk (R14): `{docId}#chunk-{chunkIndex}` when both are known, else
 * `vector:{id}` when the store gave an id. Returns undefined when neither is possible.
 */
export function evidenceKey(identity: {
  docId?: string | undefined;
  chunkIndex?: number | undefined;
  vectorId?: string | undefined;
}): string | undefined {
  if (identity.docId !== undefined && identity.chunkIndex !== undefined) {
    return `${identity.docId}#chunk-${identity.chunkIndex}`;
  }
  if (identity.vectorId !== undefined) return `vector:${identity.vectorId}`;
  return undefined;
}

/** Reads `docId`, falling back to `doc_id` (R14). Numbers are accepted and turned into strings. */
export function readDocId(metadata: Record<string, unknown>): string | undefined {
  for (const key of ["docId", "doc_id"]) {
    const value = metadata[key];
    if (typeof value === "string" && value.trim() !== "") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

/**
 * Reads `chunkIndex`, falling back to `chunk_index` (R14). A non-negative integer, or a
 * string holding one (stores that keep metadata as strings), is accepted.
 */
export function readChunkIndex(metadata: Record<string, unknown>): number | undefined {
  for (const key of ["chunkIndex", "chunk_index"]) {
    const value = metadata[key];
    const number = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof number === "number" && Number.isInteger(number) && number >= 0) return number;
  }
  return undefined;
}
