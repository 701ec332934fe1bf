import type { SnapshotKeys } from "../snapshot/snapshot-keys.js";

/** A slot with its fused, lexical and dense scores. */
export interface ScoredSlot {
  slot: number;
  /** The fused score, `(1 - w) * lexical + w * dense`. */
  score: number;
  lexical: number;
  dense: number;
}

/** A bounded min-heap keeping the best entries by (score desc, id asc). */
export class TopSlots {
  private readonly entries: ScoredSlot[] = [];

  constructor(
    private readonly capacity: number,
    private readonly keys: SnapshotKeys,
  ) {}

  /** The score an entry must beat (or tie with a smaller id) once the heap is full; 0 before. */
  threshold(): number {
    return this.entries.length < this.capacity ? 0 : (this.entries[0] as ScoredSlot).score;
  }

  /** Whether an entry would be kept if it passed the filter. */
  wouldEnter(slot: number, score: number): boolean {
    if (this.entries.length < this.capacity) return true;
    const worst = this.entries[0] as ScoredSlot;
    return this.better(slot, score, worst.slot, worst.score);
  }

  push(slot: number, score: number, lexical: number, dense: number): void {
    const entry = { slot, score, lexical, dense };
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
      this.siftUp(this.entries.length - 1);
    } else {
      this.entries[0] = entry;
      this.siftDown(0);
    }
  }

  sorted(): ScoredSlot[] {
    return [...this.entries].sort((left, right) => (this.better(left.slot, left.score, right.slot, right.score) ? -1 : 1));
  }

  private better(slot: number, score: number, otherSlot: number, otherScore: number): boolean {
    if (score !== otherScore) return score > otherScore;
    return this.keys.id(slot) < this.keys.id(otherSlot);
  }

  /** `a` should sit above `b` in the heap: it is the worse of the two. */
  private above(a: ScoredSlot, b: ScoredSlot): boolean {
    return this.better(b.slot, b.score, a.slot, a.score);
  }

  private siftUp(index: number): void {
    const entries = this.entries;
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.above(entries[child] as ScoredSlot, entries[parent] as ScoredSlot)) break;
      [entries[child], entries[parent]] = [entries[parent] as ScoredSlot, entries[child] as ScoredSlot];
      child = parent;
    }
  }

  private siftDown(index: number): void {
    const entries = this.entries;
    let parent = index;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let top = parent;
      if (left < entries.length && this.above(entries[left] as ScoredSlot, entries[top] as ScoredSlot)) top = left;
      if (right < entries.length && this.above(entries[right] as ScoredSlot, entries[top] as ScoredSlot)) top = right;
      if (top === parent) return;
      [entries[parent], entries[top]] = [entries[top] as ScoredSlot, entries[parent] as ScoredSlot];
      parent = top;
    }
  }
}
