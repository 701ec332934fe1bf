import type { L0Hints } from "@lookup-knowledge/core";

/** An index of knowledge entries that answers which of them a query names (L0, R4). */
export interface L0Index {
  /**
   * The hints of a query: matched titles, keywords, domains, entities and entries, best
   * entry first. Same index and query, same hints. A query matching nothing gives empty lists.
   */
  match(query: string): L0Hints;
  /** How many entries the index holds. */
  readonly size: number;
}
