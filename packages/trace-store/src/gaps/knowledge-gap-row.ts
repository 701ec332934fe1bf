/**
 * One distinct stored query among a period's refused and low-relevance lookups, aggregated in
 * SQL (issue 37 item 5): what the grouping reads, never whole records.
 */
export interface KnowledgeGapRow {
  /** The stored query: text, or its keyed hash (`hmac-sha256:...`). */
  query: string;
  lookups: number;
  refusedLookups: number;
  lowRelevanceLookups: number;
  /** ISO 8601. */
  firstSeen: string;
  lastSeen: string;
  bestScore: number | null;
  /** The best top score of its refused lookups alone; null when none was refused or scored. */
  bestRefusedScore: number | null;
  threshold: number | null;
  /** L0 hints as stored (hashed terms in hash mode): keywords, entities, titles, domains. */
  hintTerms: string[];
  /**
   * The page behind each of its lookups' best attempt (`topSource`, issue 37 item 1) with the
   * best such score, and of its newest lookup its hints' L0 entries and, when it was answered
   * with low relevance, its evidence.
   */
  pages: Array<{ source: string; title?: string; bestScore: number | null }>;
  /**
   * Its newest lookups, capped: their ids and start times (milliseconds since 1970) side by
   * side, newest first (then by id, descending, in the database's order).
   */
  recentLookups: { ids: string[]; createdAtMs: number[] };
  /** Lookups per day, the day counted in days since 1970 (UTC). */
  perDay: Array<{ day: number; lookups: number }>;
}
