/**
 * A term of a query as `analyze` gives it: the term compared (e.g. a stem, `kubernet`), or the
 * term and the word to show for it (`{ term: "kubernet", shown: "kubernetes" }`).
 */
export type AnalyzedTerm = string | { term: string; shown: string };

/** How to compute a `KnowledgeGapReport`. */
export interface KnowledgeGapOptions {
  /** Calls that started at or after this time. */
  since: Date;
  /** Calls that started before this time; default now. */
  until?: Date;
  /**
   * Splits a query into comparable terms: the knowledge base's own analyzer (normalisation,
   * stop words, stemming, jieba for Chinese), e.g. `@lookup-knowledge/text`'s. The trace store
   * has no analyzer of its own, so that groups use the same terms as retrieval.
   */
  analyze: (text: string) => readonly AnalyzedTerm[];
  /**
   * The knowledge base's document frequencies (after `analyze`): a term weighs more the rarer
   * it is in the base; without them, the rarer it is among the period's distinct queries.
   */
  documentFrequencies?: { documentCount: number; frequency(term: string): number };
  /** `hash`: show no query text, even of records kept before the setting (group from hints only). */
  queryStorage?: "text" | "hash";
  /** At most this many ids per group, default 50. */
  maxLookupIds?: number;
}
