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

  /** Counts the terms of a tokenised text into dictionary ids and frequencies. */
  countTerms(terms: readonly string[]): { terms: Uint32Array; frequencies: Uint16Array } {
    const counts = new Map<number, number>();
    for (const term of terms) {
      const id = this.termId(term);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const ids = new Uint32Array(counts.size);
    const frequencies = new Uint16Array(counts.size);
    let index = 0;
    for (const [id, count] of counts) {
      ids[index] = id;
      frequencies[index] = Math.min(count, 65_535);
      index += 1;
    }
    return { terms: ids, frequencies };
  }
}
