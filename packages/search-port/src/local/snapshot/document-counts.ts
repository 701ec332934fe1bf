import { hashText } from "./hash-text.js";

/** The fewest slots a table starts with. */
const smallestCapacity = 1024;

/**
 * Live records per document, to count distinct documents (a record without a document id is
 * a document of its own, `loose`): each document id kept as its two 32-bit hashes (`hashText`,
 * a 64-bit key) with its count, 12 bytes a slot in typed arrays at most three quarters full,
 * where a `Map` held every id's string and an entry. No id is kept, so two documents whose ids
 * share all 64 bits count as one: among n documents that happens with a chance of about
 * n^2 / 2^65 (about 1 in 370,000 at ten million documents).
 */
export class DocumentCounts {
  private high: Uint32Array;
  private low: Uint32Array;
  /** Live records per slot's document; 0: an empty slot. */
  private counts: Uint32Array;
  private used = 0;
  private loose = 0;

  constructor() {
    this.high = new Uint32Array(smallestCapacity);
    this.low = new Uint32Array(smallestCapacity);
    this.counts = new Uint32Array(smallestCapacity);
  }

  /** Distinct documents among the records counted in. */
  get documents(): number {
    return this.used + this.loose;
  }

  /** Counts a record of `docId` in (`by` 1) or out (-1); counting out a document not counted in does nothing. */
  add(docId: string | null, by: 1 | -1): void {
    if (docId === null) {
      this.loose = Math.max(0, this.loose + by);
      return;
    }
    const high = hashText(docId, 0);
    const low = hashText(docId, 1);
    const at = this.slotOf(high, low);
    if (this.counts[at] !== 0) {
      const left = (this.counts[at] as number) + by;
      if (left > 0) this.counts[at] = left;
      else this.removeAt(at);
      return;
    }
    if (by < 0) return;
    if (4 * (this.used + 1) > 3 * this.counts.length) {
      this.grow();
      this.add(docId, by);
      return;
    }
    this.high[at] = high;
    this.low[at] = low;
    this.counts[at] = 1;
    this.used += 1;
  }

  /** The slot holding the key, or the empty slot where it would go. */
  private slotOf(high: number, low: number): number {
    const mask = this.counts.length - 1;
    let at = high & mask;
    while (this.counts[at] !== 0 && (this.high[at] !== high || this.low[at] !== low)) at = (at + 1) & mask;
    return at;
  }

  /** Empties slot `at`, moving later slots of the same run back so every key stays reachable from its home slot. */
  private removeAt(at: number): void {
    const { high, low, counts } = this;
    const mask = counts.length - 1;
    let hole = at;
    for (let next = (hole + 1) & mask; counts[next] !== 0; next = (next + 1) & mask) {
      const home = (high[next] as number) & mask;
      // The entry at `next` may move into the hole unless its home lies cyclically in (hole, next].
      const staysPut = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (staysPut) continue;
      high[hole] = high[next] as number;
      low[hole] = low[next] as number;
      counts[hole] = counts[next] as number;
      hole = next;
    }
    counts[hole] = 0;
    this.used -= 1;
  }

  private grow(): void {
    const { high, low, counts } = this;
    this.high = new Uint32Array(2 * counts.length);
    this.low = new Uint32Array(2 * counts.length);
    this.counts = new Uint32Array(2 * counts.length);
    for (let at = 0; at < counts.length; at += 1) {
      if (counts[at] === 0) continue;
      const slot = this.slotOf(high[at] as number, low[at] as number);
      this.high[slot] = high[at] as number;
      this.low[slot] = low[at] as number;
      this.counts[slot] = counts[at] as number;
    }
  }
}
