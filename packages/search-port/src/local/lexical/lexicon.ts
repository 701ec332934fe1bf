import type { LexicalIndex } from "../snapshot/index-snapshot.js";
import type { PostingsPiece } from "./lexical-segment.js";
import type { BlockBounds } from "./term-score-bounds.js";

/** One term's postings: the slots holding it, ascending, and its frequency in each. */
export interface Postings {
  slots: Uint32Array;
  frequencies: Uint16Array;
}

/**
 * The inverted index as searches use it: terms looked up one by one, postings fetched per
 * term. A committed generation of format 4 reads them from its files on demand
 * (`FileLexicon`); everything else holds the arrays (`MemoryLexicon`).
 */
export interface Lexicon {
  readonly termCount: number;
  /** Indexed terms over all slots (for the BM25 average length). */
  readonly totalLength: number;
  /** The index of `term` among the sorted terms, or -1. */
  find(term: string): number;
  /** How many slots hold term `index`. */
  documentFrequency(index: number): number;
  /**
   * Term `index`'s postings. They may live in memory the lexicon uses again: they stay valid
   * until the next `beginSearch`, so a search takes them and is done with them before it
   * returns (searches are synchronous from their first postings to their last use).
   */
  postings(index: number): Postings;
  /** Says that a new search starts: the postings handed out before may be overwritten. */
  beginSearch?(): void;
  /** Indexed terms per slot (the BM25 document length). */
  lengths(): Uint32Array;
  /** Everything as arrays (read whole the first time: a writer's need). */
  arrays(): LexicalIndex;
  /**
   * Term `index`'s postings where they lie, for a lexicon of several segments
   * (`SegmentedLexicon`): one piece per segment holding it, in the segment's own slots, in
   * memory valid until the next `beginSearch`. Absent: `postings(index)` is the one piece.
   */
  pieces?(index: number): PostingsPiece[];
  /** Term `index`'s block bounds as the index stores them (format 5), when it does, checked against its `postings`. */
  storedBounds?(index: number, postings: Postings): BlockBounds | undefined;
}

export class MemoryLexicon implements Lexicon {
  constructor(private readonly index: LexicalIndex) {}

  get termCount(): number {
    return this.index.terms.length;
  }

  get totalLength(): number {
    return this.index.totalLength;
  }

  find(term: string): number {
    return findTerm(this.index.terms, term);
  }

  documentFrequency(index: number): number {
    return (this.index.termStarts[index + 1] as number) - (this.index.termStarts[index] as number);
  }

  postings(index: number): Postings {
    const start = this.index.termStarts[index] as number;
    const end = this.index.termStarts[index + 1] as number;
    return { slots: this.index.postingSlots.subarray(start, end), frequencies: this.index.postingFrequencies.subarray(start, end) };
  }

  lengths(): Uint32Array {
    return this.index.lengths;
  }

  arrays(): LexicalIndex {
    return this.index;
  }
}

/** The index of `term` in the sorted `terms`, or -1. */
export function findTerm(terms: readonly string[], term: string): number {
  let low = 0;
  let high = terms.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const candidate = terms[middle] as string;
    if (candidate === term) return middle;
    if (candidate < term) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
