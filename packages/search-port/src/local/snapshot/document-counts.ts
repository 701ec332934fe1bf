import { hashText } from "./hash-text.js";

/** The fewest slots a table starts with. */
const smallestCapacity = 1024;
/** A slot's count at which the count moves to `large` (kept there while it stays this high). */
const countInLarge = 255;

/**
 * Live records per document, to count distinct documents (a record without a document id is
 * a document of its own, `loose`): each document id kept as its two 32-bit hashes (`hashText`,
 * a 64-bit key) with its count, 9 bytes a slot in typed arrays at most three quarters full,
 * where a `Map` held every id's string and an entry. No id is kept, so two documents whose ids
 * share all 64 bits count as one: among n documents that happens with a chance of about
 * n^2 / 2^65 (about 1 in 370,000 at ten million documents). A count past 254 (a document of
 * that many records) is kept in a `Map` beside the slot instead.
 *
 * The table's size need not be a power of two: a key's home slot is its first hash scaled to
 * the size. `countAll` sizes it from what a first count sees, so a writer counting ten million
 * documents at a commit holds one table of their size, not that table plus the half-size one
 * it grew from (issue 36: the build's peak memory).
 */
export class DocumentCounts {
  private high: Uint32Array;
  private low: Uint32Array;
  /** Live records per slot's document, or `countInLarge`: the count is in `large`; 0: an empty slot. */
  private counts: Uint8Array;
  /** Counts of `countInLarge` or more, by the key's two hashes. */
  private readonly large = new Map<string, number>();
  private used = 0;
  private loose = 0;
  /** While `countAll` runs: the records it will give at most, and how many it gave so far. */
  private scan: { records: number; seen: number } | undefined;

  constructor() {
    this.high = new Uint32Array(smallestCapacity);
    this.low = new Uint32Array(smallestCapacity);
    this.counts = new Uint8Array(smallestCapacity);
  }

  /**
   * Counts in every record `each` gives, `records` of them at most. When the table fills, it
   * grows to what the share of distinct documents seen so far makes of all `records` (kept
   * below `records`), instead of doubling: documents' records tend to come together, so that
   * share holds along the way, and a count of ten million documents grows the table once or
   * twice where doubling from 1,024 slots grew it fourteen times.
   */
  static countAll(records: number, each: (count: (docId: string | null) => void) => void): DocumentCounts {
    const counts = new DocumentCounts();
    const scan = { records: Math.max(0, records), seen: 0 };
    counts.scan = scan;
    try {
      each((docId) => {
        scan.seen += 1;
        counts.add(docId, 1);
      });
    } finally {
      counts.scan = undefined;
    }
    return counts;
  }

  /** Distinct documents among the records counted in. */
  get documents(): number {
    return this.used + this.loose;
  }

  /** Bytes of the table's typed arrays. */
  get bytes(): number {
    return this.high.byteLength + this.low.byteLength + this.counts.byteLength;
  }

  /** Counts a record of `docId` in (`by` 1) or out (-1); counting out a document not counted in does nothing. */
  add(docId: string | null, by: 1 | -1): void {
    if (docId === null) {
      this.loose = Math.max(0, this.loose + by);
      return;
    }
    const high = hashText(docId, 0);
    const low = hashText(docId, 1);
    let at = this.slotOf(high, low);
    if (this.counts[at] !== 0) {
      this.change(at, high, low, by);
      return;
    }
    if (by < 0) return;
    if (4 * (this.used + 1) > 3 * this.counts.length) {
      this.grow();
      at = this.slotOf(high, low);
    }
    this.high[at] = high;
    this.low[at] = low;
    this.counts[at] = 1;
    this.used += 1;
  }

  /** Moves the count of the document in slot `at` by `by`, emptying the slot when none is left. */
  private change(at: number, high: number, low: number, by: 1 | -1): void {
    const count = this.counts[at] as number;
    if (count < countInLarge - 1 || (count === countInLarge - 1 && by < 0)) {
      if (count + by > 0) this.counts[at] = count + by;
      else this.removeAt(at);
      return;
    }
    const key = `${high}:${low}`;
    const left = (count === countInLarge ? (this.large.get(key) as number) : count) + by;
    if (left >= countInLarge) {
      this.counts[at] = countInLarge;
      this.large.set(key, left);
    } else {
      this.counts[at] = left;
      this.large.delete(key);
    }
  }

  /** The slot a key looks from first: its first hash scaled to the table's size. */
  private home(high: number): number {
    return Math.floor((high / 4294967296) * this.counts.length);
  }

  /** The slot holding the key, or the empty slot where it would go. */
  private slotOf(high: number, low: number): number {
    const size = this.counts.length;
    let at = this.home(high);
    while (this.counts[at] !== 0 && (this.high[at] !== high || this.low[at] !== low)) at = at + 1 === size ? 0 : at + 1;
    return at;
  }

  /** Empties slot `at`, moving later slots of the same run back so every key stays reachable from its home slot. */
  private removeAt(at: number): void {
    const { high, low, counts } = this;
    const size = counts.length;
    let hole = at;
    for (let next = hole + 1 === size ? 0 : hole + 1; counts[next] !== 0; next = next + 1 === size ? 0 : next + 1) {
      const home = this.home(high[next] as number);
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

  /** Slots for the table once it holds one more key: twice as many, or during `countAll` what its share of new keys projects. */
  private grownSize(): number {
    let wanted = this.used + 1;
    const { scan } = this;
    if (scan !== undefined && scan.seen > 0 && scan.records > scan.seen) {
      // 5% over the projection, so a share that creeps up late does not grow the table again.
      wanted = Math.max(wanted, Math.min(scan.records, Math.ceil(((this.used + 1) / scan.seen) * scan.records * 1.05)));
    } else {
      wanted = Math.max(wanted, this.counts.length);
    }
    return Math.max(2 * this.counts.length, Math.ceil((4 * wanted) / 3) + 1);
  }

  private grow(): void {
    const { high, low, counts } = this;
    const size = this.grownSize();
    this.high = new Uint32Array(size);
    this.low = new Uint32Array(size);
    this.counts = new Uint8Array(size);
    for (let at = 0; at < counts.length; at += 1) {
      if (counts[at] === 0) continue;
      const slot = this.slotOf(high[at] as number, low[at] as number);
      this.high[slot] = high[at] as number;
      this.low[slot] = low[at] as number;
      this.counts[slot] = counts[at] as number;
    }
  }
}
