import type { MetadataFilter } from "@lookup-knowledge/core";

/** Settings of `createL0Index`. */
export interface L0IndexOptions {
  /**
   * Shortest term that may match, in characters (default 2). Applies as is to words of
   * space-separated scripts such as English. CJK terms need two characters unless this is 1,
   * since a single Chinese character matches far too much.
   */
  minTermLength?: number;
  /** Most entries one match returns, best first (default 20). The hint lists still cover every matched entry. */
  maxEntries?: number;
  /**
   * How specific a term must be to match: the largest share of the entries that may hold it
   * (default 0.02), though a term of at most `minimumTermEntries` (3) entries is always
   * specific. A term more entries hold ("gateway" in a gateway's documentation, a
   * category every page shares) never becomes a hint, a filter or a boost; the domains of
   * the entries only such terms matched are `L0Hints.otherDomains`, which keep a single
   * domain from becoming a filter. 1 lets every term match.
   */
  maxTermShare?: number;
  /**
   * Says which terms are common in the corpus although their shape is distinctive: multi-word
   * phrases such as "load balance" that many documents use. Called with each distinct term as
   * an entry spells it (trimmed), at most once per term, while the index is built, and only for
   * terms that would otherwise be distinctive (see the package README); `true` means common.
   * A common term still matches and is still listed in `titles`, `keywords` or `entities`, but
   * like a single ordinary word it never puts its entry's domain into `L0Hints.domains` (only
   * into `otherDomains`), so it never makes a category filter on its own (R7). Give it what you
   * know of the corpus, e.g. the local index's document frequencies. Pure is best: an error it
   * throws comes out of `createL0Index`.
   */
  isCommonTerm?: (term: string) => boolean;
  /**
   * `isCommonTerm` counted inside a caller's scope, for the index that scope sees
   * (`L0Index.within`): give it when `isCommonTerm` reads statistics of the whole corpus, so
   * that what is common is counted among the caller's records only (the local index's
   * `termShare(text, scope)`). Without it a scope keeps `isCommonTerm`.
   */
  isCommonTermIn?: (scope: MetadataFilter) => (term: string) => boolean;
}

/** A term that at most this many entries hold is specific whatever the index's size. */
export const minimumTermEntries = 3;
