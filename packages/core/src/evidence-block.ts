/**
 * `L0+L1`: L0 hints and L1 candidates both took part; `L1`: only L1 did (R23). `L0` and
 * `none` only describe lookups that found no evidence.
 */
export type RetrievalLayer = "L0+L1" | "L1" | "L0" | "none";

/** One piece of evidence, in the shape the agent sees (R20). */
export interface EvidenceBlock {
  evidenceKey: string;
  docId?: string;
  chunkIndex?: number;
  source: string;
  title?: string;
  breadcrumb?: string;
  retrievalLayer: RetrievalLayer;
  content: string;
  /** Readable reasons, e.g. `semantic match 0.82`, `title matches L0 hint "Refunds"`. */
  hitReasons: string[];
  /**
   * The hit reasons as the model reads them: one short plain-language line without the
   * pipeline's words or scores, e.g. `matches the page title Refunds; mentions refund, invoice`.
   */
  why?: string;
  /** The port's normalised similarity, when known. */
  score?: number;
  /** The rerank score the order was decided by. */
  rankScore: number;
  /** 1 is best. */
  rank: number;
  /**
   * The chunk's own metadata as its search hit carried it (category, front matter fields,
   * docId, ...), a shallow copy; left out when the hit had none. Data, never rendered for the
   * model: the LangChain retriever hands it on in `Document.metadata`.
   */
  metadata?: Record<string, unknown>;
}
