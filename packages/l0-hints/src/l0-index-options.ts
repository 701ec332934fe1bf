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
}
