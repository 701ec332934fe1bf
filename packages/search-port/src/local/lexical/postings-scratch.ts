import type { Postings } from "./lexicon.js";
import { type FillPostings, postingBytes, postingsIn } from "./postings-memory.js";

/** The most bytes a scratch keeps between searches; a search that needs more gets fresh memory past it. */
export const scratchMostBytes = 64 * 1024 * 1024;
const scratchLeastBytes = 1024 * 1024;

/**
 * Memory for the postings a search reads and does not keep (`PostingsArena` holds the others):
 * the lists of one search one after another, used again by the next search (`reset`). Memory
 * used again costs a copy, fresh memory a page fault per 4 KB as well (see `PostingsArena`).
 * When a search needs more, a larger block replaces it (the lists already handed out stay in
 * the old one), up to `mostBytes`; past that, each list gets fresh memory of its own.
 */
export class PostingsScratch {
  private memory: ArrayBuffer | undefined;
  private used = 0;

  constructor(private readonly mostBytes = scratchMostBytes) {}

  /** Starts a search: the lists handed out before may be overwritten from now on. */
  reset(): void {
    this.used = 0;
  }

  /** Room for `count` postings, valid until the next `reset`; `fill` reads their slot bytes and frequency bytes into it. */
  take(count: number, fill: FillPostings): Postings {
    const bytes = postingBytes(count);
    let memory = this.memory;
    if (memory === undefined || this.used + bytes > memory.byteLength) {
      const size = Math.max(scratchLeastBytes, 2 * (memory?.byteLength ?? 0), this.used + bytes);
      if (size > this.mostBytes) return fresh(count, fill);
      memory = new ArrayBuffer(size);
      this.memory = memory;
      this.used = 0;
    }
    const postings = postingsIn(memory, this.used, count, fill);
    this.used += bytes;
    return postings;
  }

  /** Bytes of memory the scratch keeps. */
  get keptBytes(): number {
    return this.memory?.byteLength ?? 0;
  }
}

/** A list in fresh memory of its own. */
function fresh(count: number, fill: FillPostings): Postings {
  const slots = new Uint32Array(count);
  const frequencies = new Uint16Array(count);
  fill(new Uint8Array(slots.buffer), new Uint8Array(frequencies.buffer));
  return { slots, frequencies };
}
