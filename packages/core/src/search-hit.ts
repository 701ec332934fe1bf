import type { Answerability } from "./answerability.js";

/** One hit as a `KnowledgeSearchPort` returns it, before the pipeline trusts it. */
export interface SearchHit {
  /** The store's vector or record id. */
  id?: string;
  content: string;
  /** docId/doc_id, chunkIndex/chunk_index, source, title, breadcrumb, category, ... */
  metadata: Record<string, unknown>;
  /** Normalised similarity in 0..1, higher is better. */
  score?: number;
  /**
   * How the port judged that its best hit answers the query. A port that calibrates its
   * score (the local port) sets it on its first hit; others leave it out.
   */
  answerability?: Answerability;
}
