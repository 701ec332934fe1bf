import { averageLength } from "../lexical/length-norms.js";
import type { LexicalSegment, PostingsPiece } from "../lexical/lexical-segment.js";
import type { Lexicon, Postings } from "../lexical/lexicon.js";
import type { LexicalIndex } from "../snapshot/index-snapshot.js";
import { appendLivePostings } from "./append-live-postings.js";
import { composedLexicalSegment } from "./composed-lexical-segment.js";
import { liveFrequency } from "./live-frequency.js";
import { liveLengths, liveTotalLength } from "./live-lengths.js";
import { mergeLiveLexicons } from "./merge-live-lexicons.js";
import { PostingsCache } from "./postings-cache.js";
import type { SlotMap } from "./slot-map.js";

/** Terms looked up that a lexicon remembers; past this many it forgets them at the next `beginSearch`. */
export const rememberedTerms = 65_536;

/** A term this lexicon numbered: its index in each part's lexicon (-1: not there), and its live postings once counted. */
interface NumberedTerm {
  partIndices: Int32Array;
  documentFrequency: number | undefined;
}

/**
 * The lexicon of a composed snapshot (`composeSnapshot`): the live records of several
 * parts, as one lexicon of them would answer. A term is looked up in every part and given
 * an index of this lexicon (never given to another term, however long it lives). A search
 * reads a term's postings in place, part by part (`pieces`: each part a `LexicalSegment`
 * with the composed statistics, its deleted records passed over), and its document
 * frequency is the count of its live postings, a part's deleted slots looked up in its
 * list; nothing is gathered. `postings` gathers every part's live postings with composed
 * slots, for callers that need one list, and keeps them (`PostingsCache`, least recently
 * used out). A term no live record holds is not found (-1), as in an index of the live
 * records alone. A part's stored block bounds were computed with that part's own average
 * length: its segment rescales them (`composedLexicalSegment`).
 */
export class SegmentedLexicon implements Lexicon {
  private readonly indexByTerm = new Map<string, number>();
  private readonly numbered = new Map<number, NumberedTerm>();
  private nextIndex = 0;
  private readonly cache: PostingsCache;
  /** The list built last, also when too large for the cache: a search that asks for it twice gathers it once. */
  private lastBuilt: { index: number; postings: Postings } | undefined;
  private lengthTable: { lengths: Uint32Array; totalLength: number } | undefined;
  private merged: LexicalIndex | undefined;
  private total: number | undefined;
  /** Each part as a segment searched in place, made on first use. */
  private readonly segments: Array<LexicalSegment | undefined> = [];

  constructor(
    private readonly slots: SlotMap,
    cacheBytes?: number,
  ) {
    this.cache = new PostingsCache(cacheBytes);
  }

  /** Distinct terms with a live posting (the first read merges every part's lexicon: `arrays`). */
  get termCount(): number {
    return this.arrays().terms.length;
  }

  /** The live records' indexed terms, without gathering their lengths (a commit reads it). */
  get totalLength(): number {
    this.total ??= this.lengthTable?.totalLength ?? liveTotalLength(this.slots);
    return this.total;
  }

  find(term: string): number {
    const known = this.indexByTerm.get(term);
    if (known !== undefined) return known;
    const { parts } = this.slots;
    const partIndices = new Int32Array(parts.length).fill(-1);
    // Held by a part without deletions: live for sure. Held only by parts with deletions: live
    // when one of its postings is (a term whose every posting is deleted is not in the index
    // of the live records), which counting its live postings tells.
    let anywhere = false;
    let surely = false;
    parts.forEach((part, index) => {
      if (this.slots.liveCount(index) === 0) return;
      const found = part.snapshot.lexicon.find(term);
      partIndices[index] = found;
      if (found < 0) return;
      anywhere = true;
      if (!this.slots.hasDeletions(index) && part.snapshot.lexicon.documentFrequency(found) > 0) surely = true;
    });
    const documentFrequency = anywhere && !surely ? this.liveFrequency(partIndices) : undefined;
    let index = -1;
    if (surely || (documentFrequency ?? 0) > 0) {
      index = this.nextIndex;
      this.nextIndex += 1;
      this.numbered.set(index, { partIndices, documentFrequency });
    }
    this.indexByTerm.set(term, index);
    return index;
  }

  documentFrequency(index: number): number {
    const term = this.term(index);
    term.documentFrequency ??= this.liveFrequency(term.partIndices);
    return term.documentFrequency;
  }

  pieces(index: number): PostingsPiece[] {
    const { partIndices } = this.term(index);
    const { parts } = this.slots;
    const pieces: PostingsPiece[] = [];
    parts.forEach((part, position) => {
      const termIndex = partIndices[position] as number;
      if (termIndex < 0) return;
      const postings = part.snapshot.lexicon.postings(termIndex);
      if (postings.slots.length === 0) return;
      // Kept with the composed snapshot per term and part: an index is never given to another term.
      pieces.push({ segment: this.segment(position), termIndex, postings, boundsKey: index * parts.length + position });
    });
    return pieces;
  }

  postings(index: number): Postings {
    const known = this.cache.get(index) ?? (this.lastBuilt?.index === index ? this.lastBuilt.postings : undefined);
    if (known !== undefined) return known;
    const built = this.build(this.term(index));
    this.cache.set(index, built);
    this.lastBuilt = { index, postings: built };
    return built;
  }

  /** A new search: past `rememberedTerms` looked-up terms, they are forgotten (an index once given is never reused). */
  beginSearch(): void {
    this.lastBuilt = undefined;
    // The parts' postings handed out before may be overwritten from now on (they are read in place).
    this.slots.parts.forEach((part, index) => {
      if (this.slots.liveCount(index) > 0) part.snapshot.lexicon.beginSearch?.();
    });
    if (this.indexByTerm.size < rememberedTerms) return;
    this.indexByTerm.clear();
    this.numbered.clear();
    this.cache.clear();
  }

  lengths(): Uint32Array {
    return this.lengthsAndTotal().lengths;
  }

  arrays(): LexicalIndex {
    if (this.merged === undefined) {
      this.merged = mergeLiveLexicons(this.slots);
      this.lengthTable ??= { lengths: this.merged.lengths, totalLength: this.merged.totalLength };
    }
    return this.merged;
  }

  /** Bytes of postings the cache keeps. */
  get cachedBytes(): number {
    return this.cache.keptBytes;
  }

  private term(index: number): NumberedTerm {
    const term = this.numbered.get(index);
    if (term === undefined) throw new RangeError(`SegmentedLexicon: no term has index ${index}`);
    return term;
  }

  /** Part `position` as a segment searched in place, with the live records' average length. */
  private segment(position: number): LexicalSegment {
    let segment = this.segments[position];
    if (segment === undefined) {
      segment = composedLexicalSegment(this.slots, position, averageLength(this.totalLength, this.slots.count));
      this.segments[position] = segment;
    }
    return segment;
  }

  /** A term's live postings over every part: a part's list, less its deleted slots the list holds. */
  private liveFrequency(partIndices: Int32Array): number {
    let frequency = 0;
    this.slots.parts.forEach((part, index) => {
      const partIndex = partIndices[index] as number;
      if (partIndex < 0) return;
      const { lexicon } = part.snapshot;
      const deleted = this.slots.deletedTable(index);
      frequency += deleted === undefined ? lexicon.documentFrequency(partIndex) : liveFrequency(lexicon.postings(partIndex).slots, deleted);
    });
    return frequency;
  }

  private lengthsAndTotal(): { lengths: Uint32Array; totalLength: number } {
    this.lengthTable ??= liveLengths(this.slots);
    return this.lengthTable;
  }

  /** One term's live postings over every part, in composed slot order. */
  private build({ partIndices }: NumberedTerm): Postings {
    const { parts, bases } = this.slots;
    let capacity = 0;
    parts.forEach((part, index) => {
      const partIndex = partIndices[index] as number;
      if (partIndex < 0) return;
      capacity += part.snapshot.lexicon.documentFrequency(partIndex);
    });
    const target = { slots: new Uint32Array(capacity), frequencies: new Uint16Array(capacity) };
    let cursor = 0;
    parts.forEach((part, index) => {
      const partIndex = partIndices[index] as number;
      if (partIndex < 0) return;
      // Copied at once, in place of a search's pieces: the part's lists stay valid until its next search.
      const postings = part.snapshot.lexicon.postings(partIndex);
      const mapping = { base: bases[index] as number, composed: this.slots.composedTable(index) };
      cursor = appendLivePostings(target, cursor, postings, { from: 0, to: postings.slots.length }, mapping);
    });
    if (cursor === capacity) return target;
    return { slots: target.slots.slice(0, cursor), frequencies: target.frequencies.slice(0, cursor) };
  }
}
