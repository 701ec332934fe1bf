import { lexicalTermIdsView, TermNumbering } from "@lookup-knowledge/text";
import { TypedPool } from "./typed-pool.js";

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

/** A record's terms counted: its distinct terms as dictionary ids, in the order they first occur, and their frequencies. */
export interface CountedTerms {
  terms: Uint32Array;
  /** Each term's frequency in the record, capped at 65535. */
  frequencies: Uint16Array;
  /** The sum of `frequencies` (the record's BM25 length). */
  length: number;
}

/**
 * A text's lexical terms counted (`CountedTerms`) as ids under the numbering (the pending
 * dictionary) of the `PendingChanges` that analysed it (`analyse`).
 */
export interface AnalysedTerms extends CountedTerms {
  readonly numbering: TermNumbering;
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
  /** The pending dictionary: the terms of added records, numbered as they were first seen. */
  private readonly numbering = new TermNumbering();
  private readonly counting = new TermCounting();
  /** The vector codes of added records (`takeCodes`). */
  private readonly codes = new TypedPool((length) => new Int8Array(length), 1 << 18);
  /** The bytes of the records in `added` (`put`), and of the pools' arrays no longer read at the last compaction (`compactIfWasteful`). */
  private heldBytes = 0;
  private wasteFrom = 0;

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

  /** Adds `record` to `added` (last in its order), in place of a pending record of its id (`drop`). */
  put(record: PendingRecord): void {
    this.drop(record.id);
    this.added.set(record.id, record);
    this.heldBytes += pooledBytes(record);
    this.compactIfWasteful();
  }

  /** Takes the pending record of `id`, if any, out of `added`. */
  drop(id: string): boolean {
    const record = this.added.get(id);
    if (record === undefined) return false;
    this.added.delete(id);
    this.heldBytes -= pooledBytes(record);
    return true;
  }

  /**
   * The pending records' arrays are views of shared blocks, and a block stays in memory while
   * any view of it does: records replaced or deleted before a fold (or analysed and never
   * staged) leave views no one reads among them. Once those outweigh the pending records' own
   * arrays (and 1 MB), the pending records' arrays are copied to new blocks, so the memory held
   * follows the records pending, not every record staged since the fold.
   */
  private compactIfWasteful(): void {
    const waste = this.takenBytes() - this.wasteFrom - this.heldBytes;
    if (waste <= Math.max(this.heldBytes, 1 << 20)) return;
    const { termsOut, frequenciesOut } = this.counting;
    for (const record of this.added.values()) {
      record.terms = termsOut.copy(record.terms);
      record.frequencies = frequenciesOut.copy(record.frequencies);
      if (record.codes !== undefined) record.codes = this.codes.copy(record.codes);
    }
    this.wasteFrom = this.takenBytes() - this.heldBytes;
  }

  private takenBytes(): number {
    return this.counting.termsOut.takenBytes + this.counting.frequenciesOut.takenBytes + this.codes.takenBytes;
  }

  /** A zero-filled array for the vector codes of a record added here (a view of a block shared with other records). */
  takeCodes(length: number): Int8Array {
    return this.codes.take(length);
  }

  /** The pending dictionary's terms by id. */
  get dictionaryTerms(): readonly string[] {
    return this.numbering.terms;
  }

  /**
   * The lexical terms of `text` (`lexicalTerms`) as ids in the pending dictionary, worked out
   * without a dictionary lookup per word (`lexicalTermIds`), and counted at once (as
   * `countTerms` counts them) from the array they were gathered in, which no record keeps: a
   * build analyses every record here, and an array of ids each is garbage to collect.
   */
  analyse(text: string): AnalysedTerms {
    const counting = this.counting;
    counting.startRecord();
    const ids = lexicalTermIdsView(text, this.numbering);
    for (let at = 0; at < ids.length; at += 1) counting.add(ids[at] as number);
    const counted = counting.record();
    return { numbering: this.numbering, terms: counted.terms, frequencies: counted.frequencies, length: counted.length };
  }

  /**
   * Counts the terms of a tokenised text (its terms, or `analyse`'s counted ids) into
   * dictionary ids (in the order they first occur) and frequencies. Counted in arrays indexed
   * by term id, used again record after record (`counting`), not in a map per record: this
   * runs once per upserted record.
   */
  countTerms(terms: readonly string[] | AnalysedTerms): CountedTerms {
    if ("numbering" in terms) {
      if (terms.numbering === this.numbering) return terms;
      // Analysed by other pending changes (these were started since): their ids are not ours.
      // Their distinct terms, in the order they first occur, are ours in the same order.
      const theirs = terms.numbering.terms;
      const ours = new Uint32Array(terms.terms.length);
      for (let at = 0; at < ours.length; at += 1) ours[at] = this.numbering.idOf(theirs[terms.terms[at] as number] as string);
      return { terms: ours, frequencies: terms.frequencies, length: terms.length };
    }
    const counting = this.counting;
    counting.startRecord();
    for (const term of terms) counting.add(this.numbering.idOf(term));
    return counting.record();
  }
}

function pooledBytes(record: PendingRecord): number {
  return record.terms.byteLength + record.frequencies.byteLength + (record.codes?.byteLength ?? 0);
}

/** The memory `countTerms` counts in: per term id, the record that last saw it and where; per distinct term of the record, its id and count. */
class TermCounting {
  /** The number of the record being counted. */
  private current = 0;
  /** Its distinct terms so far. */
  private distinct = 0;
  private seenIn = new Uint32Array(1024);
  private positionOf = new Uint32Array(1024);
  private ids = new Uint32Array(256);
  private counts = new Uint32Array(256);
  /** Where each record's terms and frequencies are copied out to. */
  readonly termsOut = new TypedPool((length) => new Uint32Array(length), 1 << 16);
  readonly frequenciesOut = new TypedPool((length) => new Uint16Array(length), 1 << 16);

  startRecord(): void {
    // Record numbers are kept in a Uint32Array: before they wrap, the marks start again.
    if (this.current === 0xffffffff) {
      this.seenIn.fill(0);
      this.current = 0;
    }
    this.current += 1;
    this.distinct = 0;
  }

  /** One more occurrence of the term `id` in the record. */
  add(id: number): void {
    if (id >= this.seenIn.length) this.grow(id + 1);
    if (this.seenIn[id] === this.current) {
      const at = this.positionOf[id] as number;
      this.counts[at] = (this.counts[at] as number) + 1;
      return;
    }
    if (this.distinct === this.ids.length) this.growRecord();
    this.seenIn[id] = this.current;
    this.positionOf[id] = this.distinct;
    this.ids[this.distinct] = id;
    this.counts[this.distinct] = 1;
    this.distinct += 1;
  }

  /** The record's distinct term ids, in the order they first occurred, and their frequencies (capped at 65535). */
  record(): CountedTerms {
    const distinct = this.distinct;
    const frequencies = this.frequenciesOut.take(distinct);
    let length = 0;
    for (let at = 0; at < distinct; at += 1) {
      const frequency = Math.min(this.counts[at] as number, 65_535);
      frequencies[at] = frequency;
      length += frequency;
    }
    const terms = this.termsOut.take(distinct);
    terms.set(this.ids.subarray(0, distinct));
    return { terms, frequencies, length };
  }

  private grow(least: number): void {
    const length = Math.max(least, 2 * this.seenIn.length);
    const seenIn = new Uint32Array(length);
    seenIn.set(this.seenIn);
    const positionOf = new Uint32Array(length);
    positionOf.set(this.positionOf);
    this.seenIn = seenIn;
    this.positionOf = positionOf;
  }

  private growRecord(): void {
    const ids = new Uint32Array(2 * this.ids.length);
    ids.set(this.ids);
    const counts = new Uint32Array(2 * this.counts.length);
    counts.set(this.counts);
    this.ids = ids;
    this.counts = counts;
  }
}
