/** One knowledge entry of the L0 index: a document's title, keywords, domain and entities. */
export interface KnowledgeEntry {
  id: string;
  source: string;
  title?: string | undefined;
  keywords?: string[] | undefined;
  /** The document's domain or category (matched against chunk metadata `category`). */
  domain?: string | undefined;
  /** Entity terms: product names, aliases, tags. */
  entities?: string[] | undefined;
  /**
   * Further metadata the document's chunks carry (a tenant, an access scope). A caller's
   * filter admits an entry as it admits the document's chunks: it is tested against
   * `docId` (the id), `source`, `title`, `category` (the domain), `keywords` and these
   * fields, so hints never name a document the caller cannot read.
   */
  metadata?: Record<string, unknown> | undefined;
}

/** Which field of an entry a query term matched. */
export type L0MatchField = "title" | "keyword" | "domain" | "entity";

/** One entry the query matched, and through which terms. */
export interface L0EntryMatch {
  id: string;
  source: string;
  title?: string;
  domain?: string;
  /** All entity terms of the entry (its aliases), so query transformation can add them. */
  entities?: string[];
  matches: Array<{ field: L0MatchField; term: string }>;
}

/**
 * What L0 knows about a query (R4). Hints steer and explain retrieval; they are never
 * evidence (R6).
 */
export interface L0Hints {
  /** Titles of the matched entries whose title the query matched. */
  titles: string[];
  /** Keywords the query matched. */
  keywords: string[];
  /** Distinct non-blank domains of the matched entries. */
  domains: string[];
  /**
   * Domains of entries that only generic terms of the query matched (terms too many entries
   * hold to say which one is meant). They are no hints of their own and earn no boost; they
   * only keep a single domain from becoming a filter (R7): the query spans more than one.
   */
  otherDomains?: string[];
  /** Entity terms the query matched. */
  entities: string[];
  /** Every matched entry, best first. */
  entries: L0EntryMatch[];
}

/** The hints of a query that matched nothing. */
export function emptyL0Hints(): L0Hints {
  return { titles: [], keywords: [], domains: [], entities: [], entries: [] };
}

/** Whether any L0 hint took part. */
export function hasL0Hints(hints: L0Hints): boolean {
  return hints.entries.length > 0;
}
