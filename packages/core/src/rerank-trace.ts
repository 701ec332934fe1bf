/** One named boost the rule reranker gave a candidate (R19). */
export interface RerankBoost {
  signal: string;
  reason: string;
  amount: number;
}

/** How one of the top blocks got its rank (R19). */
export interface RerankTraceEntry {
  rank: number;
  evidenceKey: string;
  source: string;
  baseScore?: number;
  boosts: RerankBoost[];
  finalScore: number;
  /** The rank the port gave it, 1 first. */
  portRank: number;
}

export interface RerankTrace {
  /** The rule set that decided the order, so a reader knows the amounts' meaning. */
  method: string;
  entries: RerankTraceEntry[];
}
