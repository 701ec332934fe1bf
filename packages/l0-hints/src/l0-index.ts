import type { KnowledgeEntry, L0Hints, MetadataFilter } from "@lookup-knowledge/core";

/** An index of knowledge entries that answers which of them a query names (L0, R4). */
export interface L0Index {
  /**
   * The hints of a query: matched titles, keywords, domains, entities and entries, best
   * entry first. Same index and query, same hints. A query matching nothing gives empty lists.
   */
  match(query: string): L0Hints;
  /**
   * The index a caller's scope sees (a tenant, an access filter): the entries `admits` keeps,
   * built as if no other entry existed, so which terms are specific or generic, and every
   * hint, depends on those entries only. What is common (`isCommonTerm`) is counted in the
   * scope by `L0IndexOptions.isCommonTermIn` when the index has it; else the index's own test
   * is kept. `admits` gets a copy of each entry and is called once per entry. An index of your
   * own without `within` gives a retriever no hints under a caller's filter: it cannot say
   * which entries that caller may see.
   */
  within?(scope: L0Scope): L0Index;
  /** How many entries the index holds. */
  readonly size: number;
}

/** A caller's scope, as `L0Index.within` takes it. */
export interface L0Scope {
  /** The caller's filter (what `isCommonTermIn` counts in). */
  filter: MetadataFilter;
  /** Whether the filter admits an entry (as it admits the chunks of the entry's document). */
  admits(entry: KnowledgeEntry): boolean;
}
