import type { Postings } from "./lexicon.js";
import { type FillPostings, postingBytes, postingsIn } from "./postings-memory.js";

/** One list held in the ring: where its bytes are, and the last search that was handed it. */
interface HeldList {
  term: number;
  start: number;
  end: number;
  postings: Postings;
  search: number;
}

/**
 * The postings lists a reader read lately, held in one ring of memory that is used again and
 * again: a new list is read into the bytes after the last one, and the oldest lists make room
 * (first in, first out). Reading into memory already in use costs a copy; reading into fresh
 * memory also costs a page fault per 4 KB (10-15x slower here: 11-19 GB/s against 0.7-1.6 GB/s
 * for 4 MB reads from the page cache), which was most of a cold lexical search at a million
 * chunks. The ring is allocated on first use and its pages are touched only as lists fill it.
 *
 * A list handed to a search stays valid until the next `beginSearch`: a list the current
 * search was handed is never overwritten (a list that would need its bytes is not held,
 * `hold` says so). Searches are synchronous from their first postings to their last use, so
 * one search's lists are never overwritten by another's.
 */
export class PostingsArena {
  private memory: ArrayBuffer | undefined;
  private unallocatable = false;
  /** Where the next list goes. */
  private head = 0;
  /** The lists held, oldest first (`held[first]` on), and by term. */
  private held: HeldList[] = [];
  private first = 0;
  private readonly byTerm = new Map<number, HeldList>();
  private search = 0;

  /** `capacity`: bytes of postings held at most (6 a posting, 8-byte aligned). */
  constructor(readonly capacity: number) {}

  /** Starts a search: the lists handed out before may be overwritten from now on. */
  beginSearch(): void {
    this.search += 1;
  }

  /** The held postings of `term`, if any (handed to the current search). */
  get(term: number): Postings | undefined {
    const list = this.byTerm.get(term);
    if (list === undefined) return undefined;
    list.search = this.search;
    return list.postings;
  }

  /**
   * Makes room for `count` postings of `term`, has `fill` read their slot bytes (4 each) and
   * frequency bytes (2 each) into it, and holds them. Returns undefined, reading nothing, when
   * there is no room: the list is larger than a quarter of the ring, or the lists in its way
   * belong to the current search. A `fill` that throws leaves nothing held in that room.
   */
  hold(term: number, count: number, fill: FillPostings): Postings | undefined {
    const bytes = postingBytes(count);
    if (bytes > this.capacity / 4) return undefined;
    const memory = this.ringMemory();
    if (memory === undefined) return undefined;
    const start = this.makeRoom(bytes);
    if (start === undefined) return undefined;
    const postings = postingsIn(memory, start, count, fill);
    const list = { term, start, end: start + bytes, postings, search: this.search };
    this.byTerm.set(term, list);
    this.held.push(list);
    this.head = list.end;
    return postings;
  }

  /**
   * The ring's memory, allocated on first use; undefined (and no list held, ever) when the
   * allocation fails: a `capacity` larger than the process can allocate is not an error.
   */
  private ringMemory(): ArrayBuffer | undefined {
    if (this.memory === undefined && !this.unallocatable) {
      try {
        this.memory = new ArrayBuffer(this.capacity);
      } catch {
        this.unallocatable = true;
      }
    }
    return this.memory;
  }

  /** Bytes the held lists take. */
  get heldBytes(): number {
    let total = 0;
    for (const list of this.byTerm.values()) total += list.end - list.start;
    return total;
  }

  /**
   * The start of `bytes` free bytes at the head (from 0 when the bytes before the ring's end
   * are too few), the oldest lists in the way let go; undefined when one of them belongs to
   * the current search.
   */
  private makeRoom(bytes: number): number | undefined {
    let start = this.head;
    if (start + bytes > this.capacity) {
      // The ring goes on from 0: the lists between the head and the end are the oldest, and go first.
      if (!this.letGoWhile((list) => list.start >= start)) return undefined;
      start = 0;
    }
    if (!this.letGoWhile((list) => list.start >= start && list.start < start + bytes)) return undefined;
    return start;
  }

  /** Lets the oldest lists go while `inTheWay` holds for them; false when one belongs to the current search. */
  private letGoWhile(inTheWay: (list: HeldList) => boolean): boolean {
    while (this.first < this.held.length) {
      const list = this.held[this.first] as HeldList;
      if (!inTheWay(list)) break;
      if (list.search === this.search) return false;
      if (this.byTerm.get(list.term) === list) this.byTerm.delete(list.term);
      this.first += 1;
    }
    if (this.first > 1024 && this.first * 2 > this.held.length) {
      this.held = this.held.slice(this.first);
      this.first = 0;
    }
    return true;
  }
}
