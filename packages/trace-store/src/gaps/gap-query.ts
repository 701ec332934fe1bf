import type { KnowledgeGapRow } from "./knowledge-gap-row.js";

/** One distinct query made ready for grouping: its terms, each with the word shown for it. */
export interface GapQuery {
  row: KnowledgeGapRow;
  /** Its text may not be shown: grouped from its hints and sources only. */
  hashed: boolean;
  /** Term -> the word shown for it. */
  terms: Map<string, string>;
  /** The terms that may link it to other queries (rare enough), with their weights. */
  salient: Map<string, number>;
  /** The sum of `salient`'s weights. */
  weight: number;
}
