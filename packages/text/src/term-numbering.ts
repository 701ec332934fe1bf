/** The stamp of the next numbering; 0 and -1 are kept for "none" and "dropped" (`TermTable`). */
let nextStamp = 1;

/**
 * Numbers terms 0, 1, 2, ... in the order they are first seen: the dictionary an index builds
 * as it analyses its records (`lexicalTermIds`). Besides its own map, the lexical view's cache
 * of word terms (`TermTable`) remembers the id of each word it holds under this numbering's
 * `stamp`, so a word seen before gets its id without its term being looked up here.
 */
export class TermNumbering {
  /** Tells this numbering's ids apart from another's in `TermTable`. */
  readonly stamp: number;
  /** The terms by id. */
  readonly terms: string[] = [];
  private readonly ids = new Map<string, number>();

  constructor() {
    this.stamp = nextStamp;
    // Past 2^31 numberings the stamps start again; two numberings alive ~2^31 apart would share one.
    nextStamp = nextStamp >= 0x7fffffff ? 1 : nextStamp + 1;
  }

  /** How many terms are numbered. */
  get size(): number {
    return this.terms.length;
  }

  /** The id of `term`, numbered now if it has none yet. */
  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }
}
