/** A record upserted since the last fold: tokenised and embedded, not yet in the index. */
export interface PendingRecord {
  id: string;
  docId: string | null;
  content: string;
  metadataText: string;
  /** Distinct terms, as ids in the pending dictionary. */
  terms: Uint32Array;
  /** Each term's frequency in the record, capped at 65535. */
  frequencies: Uint16Array;
  /** Indexed terms in the record (its BM25 length). */
  length: number;
  /** int8 codes of the embedding (padded to the stride) and 1 / |codes|; absent when lexical only. */
  codes?: Int8Array | undefined;
  inverseNorm: number;
}

/**
 * Upserts and deletes made since the last fold: slots of the base snapshot that went, and
 * records that came (the latest per id). Terms of added records are numbered in a
 * dictionary of their own until the fold merges them into the lexicon.
 */
export class PendingChanges {
  readonly removed: Uint8Array;
  removedCount = 0;
  readonly added = new Map<string, PendingRecord>();
  readonly dictionary = new Map<string, number>();
  readonly dictionaryTerms: string[] = [];
  private readonly counting = new TermCounting();

  constructor(baseCount: number) {
    this.removed = new Uint8Array(baseCount);
  }

  get isEmpty(): boolean {
    return this.removedCount === 0 && this.added.size === 0;
  }

  remove(slot: number): boolean {
    if (this.removed[slot] === 1) return false;
    this.removed[slot] = 1;
    this.removedCount += 1;
    return true;
  }

  termId(term: string): number {
    let id = this.dictionary.get(term);
    if (id === undefined) {
      id = this.dictionaryTerms.length;
      this.dictionary.set(term, id);
      this.dictionaryTerms.push(term);
    }
    return id;
  }

  /**
   * Counts the terms of a tokenised text into dictionary ids (in the order they first occur)
   * and frequencies. Counted in arrays indexed by term id, used again record after record
   * (`counting`), not in a map per record: this runs once per upserted record.
   */
  countTerms(terms: readonly string[]): { terms: Uint32Array; frequencies: Uint16Array } {
    const counting = this.counting;
    // Record numbers are kept in a Uint32Array: before they wrap, the marks start again.
    if (counting.record === 0xffffffff) counting.restart();
    counting.record += 1;
    let distinct = 0;
    for (const term of terms) {
      const id = this.termId(term);
      if (id >= counting.seenIn.length) counting.grow(id + 1);
      if (counting.seenIn[id] === counting.record) {
        const at = counting.positionOf[id] as number;
        counting.counts[at] = (counting.counts[at] as number) + 1;
        continue;
      }
      if (distinct === counting.ids.length) counting.growRecord();
      counting.seenIn[id] = counting.record;
      counting.positionOf[id] = distinct;
      counting.ids[distinct] = id;
      counting.counts[distinct] = 1;
      distinct += 1;
    }
    const frequencies = new Uint16Array(distinct);
    for (let at = 0; at < distinct; at += 1) frequencies[at] = Math.min(counting.counts[at] as number, 65_535);
    return { terms: counting.ids.slice(0, distinct), frequencies };
  }
}

/** The memory `countTerms` counts in: per term id, the record that last saw it and where; per distinct term of the record, its id and count. */
class TermCounting {
  record = 0;
  seenIn = new Uint32Array(1024);
  positionOf = new Uint32Array(1024);
  ids = new Uint32Array(256);
  counts = new Uint32Array(256);

  /** Forgets which record saw each term, so record numbers can start again from 1. */
  restart(): void {
    this.seenIn.fill(0);
    this.record = 0;
  }

  grow(least: number): void {
    const length = Math.max(least, 2 * this.seenIn.length);
    const seenIn = new Uint32Array(length);
    seenIn.set(this.seenIn);
    const positionOf = new Uint32Array(length);
    positionOf.set(this.positionOf);
    this.seenIn = seenIn;
    this.positionOf = positionOf;
  }

  growRecord(): void {
    const ids = new Uint32Array(2 * this.ids.length);
    ids.set(this.ids);
    const counts = new Uint32Array(2 * this.counts.length);
    counts.set(this.counts);
    this.ids = ids;
    this.counts = counts;
  }
}
