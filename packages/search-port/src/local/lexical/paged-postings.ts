import { firstAtLeast } from "./first-at-least.js";
import type { Postings } from "./lexicon.js";
import { boundBlockPostings } from "./term-score-bounds.js";
import type { BlockBounds } from "./term-score-bounds.js";

/** Postings per page, the least a search reads of a paged list at a time: whole blocks of bounds, so each page's blocks are checked as it is read. */
export const pagePostings = 8 * boundBlockPostings;

/**
 * Postings a run of a list scored in full reads at least (about 96 KB): the windows after
 * the one asked for are then in memory, and a long list costs a read per run, not per page.
 */
export const readAheadPostings = 16 * 1024;

/** Reads the slot bytes (4 a posting) and frequency bytes (2 a posting) of the postings from `from` on into the views it is given. */
export type ReadPostingsAt = (from: number, slotBytes: Uint8Array, frequencyBytes: Uint8Array) => void;

/**
 * A long postings list that a search reads only where it needs it, page by page
 * (`pagePostings`), found by the term's stored block bounds (`stored`: each block's first
 * and last slot) instead of its slots: a common term that MaxScore skips (lexical-top-slots.ts)
 * costs the pages of the records it is asked about, not the whole list. `slots` and
 * `frequencies` span the whole list, but hold the postings only on the pages read: callers
 * read a posting only after `seek` or `loadUntil` reached it. Each page read is checked
 * against the stored bounds (each block's first and last slot), as a list read whole is.
 */
export class PagedPostings implements Postings {
  private readonly loaded: Uint8Array;

  constructor(
    readonly slots: Uint32Array,
    readonly frequencies: Uint16Array,
    readonly stored: BlockBounds,
    private readonly readAt: ReadPostingsAt,
    /** Called when a page's postings do not match their blocks' stored first or last slot (throws). */
    private readonly mismatch: (block: number) => never,
  ) {
    this.loaded = new Uint8Array(Math.ceil(slots.length / pagePostings));
  }

  /**
   * The first posting at or after posting `at` whose slot is at least `slot` (the list's
   * length when none is), its page read.
   */
  seek(at: number, slot: number): number {
    const count = this.slots.length;
    if (at >= count) return count;
    const block = this.blockReaching(Math.floor(at / boundBlockPostings), slot);
    if (block < 0) return count;
    const from = Math.max(at, block * boundBlockPostings);
    this.load(from, from + 1, 0);
    return firstAtLeast(this.slots, from, Math.min(count, (block + 1) * boundBlockPostings), slot);
  }

  /**
   * Reads the postings from posting `at` on whose slots are below `slot`, and some beyond
   * (`readAheadPostings`): a term scored in full over a window of slots.
   */
  loadUntil(at: number, slot: number): void {
    const count = this.slots.length;
    if (at >= count) return;
    const block = this.blockReaching(Math.floor(at / boundBlockPostings), slot);
    const to = block < 0 ? count : Math.min(count, (block + 1) * boundBlockPostings);
    this.load(at, to, readAheadPostings);
  }

  /** Reads every page not read yet: a pass that scores every posting (`lexicalScores`). */
  loadAll(): void {
    if (this.slots.length > 0) this.load(0, this.slots.length, 0);
  }

  /** The first block from `from` on whose last slot is at least `slot` (galloping, then binary search), or -1. */
  private blockReaching(from: number, slot: number): number {
    const { blockLast } = this.stored;
    const blocks = blockLast.length;
    if ((blockLast[from] as number) >= slot) return from;
    let low = from;
    let step = 1;
    let high = low + 1;
    while (high < blocks && (blockLast[high] as number) < slot) {
      low = high;
      step *= 2;
      high = low + step;
    }
    const block = firstAtLeast(blockLast, low + 1, Math.min(high, blocks), slot);
    return block < blocks ? block : -1;
  }

  /** Reads the pages of postings `from` to `to` - 1 not read yet, each run of them extended by up to `ahead` postings. */
  private load(from: number, to: number, ahead: number): void {
    const { loaded } = this;
    const lastNeeded = Math.floor((to - 1) / pagePostings);
    const lastWanted = Math.min(loaded.length - 1, Math.floor((Math.max(to, from + ahead) - 1) / pagePostings));
    let page = Math.floor(from / pagePostings);
    while (page <= lastNeeded) {
      if (loaded[page] === 1) {
        page += 1;
        continue;
      }
      let end = page + 1;
      while (end <= lastWanted && loaded[end] === 0) end += 1;
      this.readPages(page, end);
      page = end;
    }
  }

  /** Reads pages `first` to `end` - 1 in one read of slots and one of frequencies, and checks their blocks. */
  private readPages(first: number, end: number): void {
    const { slots, frequencies } = this;
    const from = first * pagePostings;
    const to = Math.min(slots.length, end * pagePostings);
    this.readAt(
      from,
      new Uint8Array(slots.buffer, slots.byteOffset + 4 * from, 4 * (to - from)),
      new Uint8Array(frequencies.buffer, frequencies.byteOffset + 2 * from, 2 * (to - from)),
    );
    const { blockFirst, blockLast } = this.stored;
    for (let block = from / boundBlockPostings; block * boundBlockPostings < to; block += 1) {
      const last = Math.min(to, (block + 1) * boundBlockPostings) - 1;
      if (slots[block * boundBlockPostings] !== blockFirst[block] || slots[last] !== blockLast[block]) this.mismatch(block);
    }
    this.loaded.fill(1, first, end);
  }
}
