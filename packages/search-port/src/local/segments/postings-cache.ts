import type { Postings } from "../lexical/lexicon.js";

/** Bytes of composed postings a `SegmentedLexicon` keeps by default. */
export const composedPostingsCacheBytes = 16 * 1024 * 1024;

/**
 * Built postings by term index, at most `capacity` bytes (6 a posting), the least recently
 * used dropped first. Dropping one only lets it go: postings handed out are never
 * overwritten, so they stay valid as long as their holder keeps them.
 */
export class PostingsCache {
  private readonly byTerm = new Map<number, Postings>();
  private bytes = 0;

  constructor(readonly capacity: number = composedPostingsCacheBytes) {}

  get(term: number): Postings | undefined {
    const known = this.byTerm.get(term);
    if (known === undefined) return undefined;
    // Most recently used last.
    this.byTerm.delete(term);
    this.byTerm.set(term, known);
    return known;
  }

  /** Keeps `postings` of `term` unless they alone are larger than the cache; older lists make room. */
  set(term: number, postings: Postings): void {
    const size = bytesOf(postings);
    if (size > this.capacity) return;
    const previous = this.byTerm.get(term);
    if (previous !== undefined) {
      this.byTerm.delete(term);
      this.bytes -= bytesOf(previous);
    }
    for (const [oldest, old] of this.byTerm) {
      if (this.bytes + size <= this.capacity) break;
      this.byTerm.delete(oldest);
      this.bytes -= bytesOf(old);
    }
    this.byTerm.set(term, postings);
    this.bytes += size;
  }

  clear(): void {
    this.byTerm.clear();
    this.bytes = 0;
  }

  /** Bytes of postings kept. */
  get keptBytes(): number {
    return this.bytes;
  }
}

function bytesOf(postings: Postings): number {
  return postings.slots.byteLength + postings.frequencies.byteLength;
}
