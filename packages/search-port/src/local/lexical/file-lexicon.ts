import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import type { LexicalIndex } from "../snapshot/index-snapshot.js";
import { findTermInRun } from "./find-term-in-run.js";
import { findTerm } from "./lexicon.js";
import type { Lexicon, Postings } from "./lexicon.js";
import { PostingsArena } from "./postings-arena.js";
import type { FillPostings } from "./postings-memory.js";
import { PostingsScratch } from "./postings-scratch.js";
import type { StoredScoreBounds } from "./stored-score-bounds.js";
import { TermTable } from "./term-table.js";
import type { BlockBounds } from "./term-score-bounds.js";
import type { VerifiedFile } from "../format/verified-file.js";

/** Sizes of a format-4 lexicon, from the manifest. */
export interface LexiconShape {
  terms: number;
  postings: number;
  chunks: number;
  totalLength: number;
}

/**
 * The postings file of format 4 holds, one after another:
 *   u32 termStarts[terms + 1]   where each term's postings start
 *   u32 postingSlots[postings]  the slots, ascending within each term
 *   u32 lengths[chunks]         indexed terms per slot
 *   u16 frequencies[postings]
 *   u32 termEnds[terms]         end of each term's UTF-8 bytes in the terms file
 * (the first four as in earlier formats). The terms file is the sorted terms joined by "\n".
 */
export function postingsLayout({ terms, postings, chunks }: LexiconShape) {
  const slotsAt = 4 * (terms + 1);
  const lengthsAt = slotsAt + 4 * postings;
  const frequenciesAt = lengthsAt + 4 * chunks;
  const termEndsAt = frequenciesAt + 2 * postings;
  return { slotsAt, lengthsAt, frequenciesAt, termEndsAt, bytes: termEndsAt + 4 * terms };
}

/** The byte end of each term in the terms file ("\n"-joined UTF-8), for the postings file. */
export function encodeTermEnds(terms: readonly string[]): Uint8Array {
  const ends = new Uint32Array(terms.length);
  let at = 0;
  terms.forEach((term, index) => {
    at += Buffer.byteLength(term, "utf8") + (index === 0 ? 0 : 1);
    ends[index] = at;
  });
  return new Uint8Array(ends.buffer);
}

/** Probes of the binary search this shallow are kept: the same few terms start every lookup. */
const cachedDepth = 12;
/** Fewer terms than this left to search are read in one go (their ends and their bytes) and searched in memory. */
const runTerms = 64;
const lookupCacheSize = 8192;
/**
 * The postings of recently searched terms are kept in a ring of reused memory
 * (`PostingsArena`, oldest dropped first): questions share their common words, and those have
 * the longest lists. The bytes kept are a quarter of the postings file, at least
 * `postingsCacheBytes.least` and at most `postingsCacheBytes.most` (`postingsCacheLimit`).
 * The ring is small on purpose: a list read again from the page cache into memory in use
 * costs 0.05-0.1 ms a MB, and a smaller ring reaches that state sooner and holds less. The
 * lists it does not hold go into memory used again search after search (`PostingsScratch`).
 */
export const postingsCacheBytes = { least: 4 * 1024 * 1024, most: 16 * 1024 * 1024 };

/** How many bytes of postings a lexicon whose postings file has `fileBytes` bytes keeps. */
export function postingsCacheLimit(fileBytes: number): number {
  return Math.min(postingsCacheBytes.most, Math.max(postingsCacheBytes.least, Math.ceil(fileBytes / 4)));
}

/**
 * A lexicon whose terms and postings files together hold at most this many bytes is read
 * whole at its first lookup and searched in memory, unless the reader keeps fewer bytes of
 * postings (`postingsCacheBytes`) than its postings file holds: a small segment (a commit of a
 * few documents) costs a few reads once instead of a binary search by reads, and two reads
 * per term, at every query that looks it up.
 */
export const wholeLexiconBytes = 64 * 1024;

/**
 * The lexicon of a format-4 generation, read from its files on demand: a term lookup is a
 * binary search by positional reads (its first levels cached), a term's postings two reads,
 * the lengths one read the first time a search needs them. A small one (`wholeLexiconBytes`)
 * is read whole instead, and one of a vocabulary of up to a few hundred thousand terms keeps
 * its term table in memory (`TermTable`).
 */
export class FileLexicon implements Lexicon {
  readonly termCount: number;
  readonly totalLength: number;
  private readonly layout: ReturnType<typeof postingsLayout>;
  private readonly probes = new Map<number, string>();
  private readonly lookups = new Map<string, number>();
  private lengthTable: Uint32Array | undefined;
  /** The lists read lately, in reused memory; undefined when none are kept (`postingsCacheBytes` 0). */
  private readonly recentPostings: PostingsArena | undefined;
  /** The lists a search reads and does not keep. */
  private readonly scratch = new PostingsScratch();
  private cached: LexicalIndex | undefined;
  /**
   * Read whole at the first lookup: a small lexicon (`wholeLexiconBytes`) whose postings the
   * reader may keep (`cacheBytes` at least its postings file). Its lists, by term, then.
   */
  private readonly readWhole: boolean;
  private readonly wholePostings = new Map<number, Postings>();
  /** The term table in memory (`TermTable`); null until the first lookup, undefined when too large. */
  private table: TermTable | undefined | null = null;

  constructor(
    private readonly postingsFile: VerifiedFile,
    private readonly termsFile: VerifiedFile,
    private readonly shape: LexiconShape,
    /** Bytes of postings kept; default `postingsCacheLimit` of the postings file. */
    cacheBytes?: number,
    /** The generation's stored block bounds (format 5). */
    private readonly bounds?: StoredScoreBounds,
    /** The largest term table kept in memory (`termTableBytes`). */
    private readonly termTableLimit?: number,
  ) {
    this.termCount = shape.terms;
    this.totalLength = shape.totalLength;
    this.layout = postingsLayout(shape);
    // The ring never needs more than the whole file's postings (each list rounds up to 8 bytes).
    const cacheLimit = Math.min(cacheBytes ?? postingsCacheLimit(postingsFile.size), postingsFile.size + 8 * shape.terms);
    this.recentPostings = cacheLimit > 0 ? new PostingsArena(cacheLimit) : undefined;
    this.readWhole = postingsFile.size + termsFile.size <= wholeLexiconBytes && (cacheBytes ?? postingsFile.size) >= postingsFile.size;
    if (postingsFile.size !== this.layout.bytes) {
      this.fail(postingsFile, `has ${postingsFile.size} bytes, expected ${this.layout.bytes}`);
    }
    if (shape.terms > 0 && this.termEnd(shape.terms - 1) !== termsFile.size) {
      this.fail(termsFile, `has ${termsFile.size} bytes, the term table says ${this.termEnd(shape.terms - 1)}`);
    }
  }

  find(term: string): number {
    if (this.readWhole) return findTerm(this.arrays().terms, term);
    const table = this.termTable();
    if (table !== undefined) return table.find(term);
    const known = this.lookups.get(term);
    if (known !== undefined) return known;
    let low = 0;
    let high = this.termCount - 1;
    let depth = 0;
    let found = -1;
    while (low <= high) {
      if (high - low < runTerms) {
        const files = { postingsFile: this.postingsFile, termsFile: this.termsFile, termEndsAt: this.layout.termEndsAt };
        found = findTermInRun(files, low, high, term, (what) => this.fail(this.postingsFile, what));
        break;
      }
      const middle = (low + high) >>> 1;
      const candidate = this.term(middle, depth < cachedDepth);
      depth += 1;
      if (candidate === term) {
        found = middle;
        break;
      }
      if (candidate < term) low = middle + 1;
      else high = middle - 1;
    }
    if (this.lookups.size >= lookupCacheSize) this.lookups.clear();
    this.lookups.set(term, found);
    return found;
  }

  documentFrequency(index: number): number {
    const [start, end] = this.range(index);
    return end - start;
  }

  beginSearch(): void {
    this.recentPostings?.beginSearch();
    this.scratch.reset();
  }

  postings(index: number): Postings {
    if (this.readWhole) {
      const known = this.wholePostings.get(index);
      if (known !== undefined) return known;
      const { postingSlots, postingFrequencies } = this.arrays();
      const [start, end] = this.range(index);
      const postings = { slots: postingSlots.subarray(start, end), frequencies: postingFrequencies.subarray(start, end) };
      this.wholePostings.set(index, postings);
      return postings;
    }
    const known = this.recentPostings?.get(index);
    if (known !== undefined) return known;
    const [start, end] = this.range(index);
    const count = end - start;
    const fill: FillPostings = (slotBytes, frequencyBytes) => {
      this.postingsFile.readInto(slotBytes, this.layout.slotsAt + 4 * start);
      this.postingsFile.readInto(frequencyBytes, this.layout.frequenciesAt + 2 * start);
    };
    const held = this.recentPostings?.hold(index, count, fill);
    if (held !== undefined) return held;
    // Not kept (too large, no room, or no cache): memory this reader uses again, search after search.
    return this.scratch.take(count, fill);
  }

  storedBounds(index: number, postings: Postings): BlockBounds | undefined {
    return this.bounds?.read(index, postings);
  }

  lengths(): Uint32Array {
    this.lengthTable ??= new Uint32Array(this.postingsFile.read(this.layout.lengthsAt, 4 * this.shape.chunks).buffer);
    return this.lengthTable;
  }

  arrays(): LexicalIndex {
    if (this.cached !== undefined) return this.cached;
    const { terms, postings } = this.shape;
    const all = this.postingsFile.read(0, this.layout.termEndsAt);
    const termStarts = new Uint32Array(all.buffer, 0, terms + 1);
    if (termStarts[0] !== 0 || termStarts[terms] !== postings) this.fail(this.postingsFile, "has inconsistent term starts");
    const text = Buffer.from(this.termsFile.read(0, this.termsFile.size).buffer).toString("utf8");
    const list = terms === 0 ? [] : text.split("\n");
    if (list.length !== terms) this.fail(this.termsFile, `does not hold ${terms} terms`);
    this.cached = {
      terms: list,
      termStarts,
      postingSlots: new Uint32Array(all.buffer, this.layout.slotsAt, postings),
      lengths: this.lengthTable ?? new Uint32Array(all.buffer, this.layout.lengthsAt, this.shape.chunks),
      postingFrequencies: new Uint16Array(all.buffer, this.layout.frequenciesAt, postings),
      totalLength: this.totalLength,
    };
    return this.cached;
  }

  /** The term table in memory, read at the first lookup when it fits `termTableBytes`; undefined when it does not. */
  private termTable(): TermTable | undefined {
    if (this.table === null) {
      const files = { postingsFile: this.postingsFile, termsFile: this.termsFile, ...this.shape, termEndsAt: this.layout.termEndsAt };
      this.table = TermTable.read(files, (what) => this.fail(this.postingsFile, what), this.termTableLimit);
    }
    return this.table;
  }

  private range(index: number): [number, number] {
    if (this.table) return this.table.range(index);
    if (this.cached !== undefined) {
      const start = this.cached.termStarts[index] as number;
      const end = this.cached.termStarts[index + 1] as number;
      if (!(end >= start) || end > this.shape.postings) this.fail(this.postingsFile, `has inconsistent postings for term ${index}`);
      return [start, end];
    }
    const view = new DataView(this.postingsFile.read(4 * index, 8).buffer);
    const start = view.getUint32(0, true);
    const end = view.getUint32(4, true);
    if (end < start || end > this.shape.postings) this.fail(this.postingsFile, `has inconsistent postings for term ${index}`);
    return [start, end];
  }

  private termEnd(index: number): number {
    return new DataView(this.postingsFile.read(this.layout.termEndsAt + 4 * index, 4).buffer).getUint32(0, true);
  }

  private term(index: number, cache: boolean): string {
    const known = this.probes.get(index);
    if (known !== undefined) return known;
    let start = 0;
    let end: number;
    if (index === 0) end = this.termEnd(0);
    else {
      const view = new DataView(this.postingsFile.read(this.layout.termEndsAt + 4 * (index - 1), 8).buffer);
      start = view.getUint32(0, true) + 1;
      end = view.getUint32(4, true);
    }
    if (end < start || end > this.termsFile.size) this.fail(this.postingsFile, `has an inconsistent end for term ${index}`);
    const term = Buffer.from(this.termsFile.read(start, end - start).buffer).toString("utf8");
    if (cache) this.probes.set(index, term);
    return term;
  }

  private fail(file: VerifiedFile, what: string): never {
    throw new CorruptIndexError({ directory: file.directory, reason: `${file.name} ${what}` });
  }
}
