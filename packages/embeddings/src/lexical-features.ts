import { featureHash } from "./feature-hash.js";
import { PairTable } from "./pair-table.js";

/**
 * One lexical feature (a stem, a pair of stems, a CJK bigram): where it lands in the hashed
 * vector, worked out once, and what the text being embedded gave it so far. A class whose
 * fields start with their final kinds (`weight` a double): a slot that changed shape later
 * would throw away the optimised code that reads slots.
 */
export class LexicalSlot {
  /** The text (its number) that `count` and `weight` are of; another text starts them again. */
  text = 0;
  /** Occurrences in that text. */
  count = 0;
  /** Sum of the occurrences' weights, in text order (NaN until the first occurrence sets it). */
  weight = Number.NaN;

  constructor(
    /** The slot's number in its table (pairs are found by the numbers of their stems). */
    readonly id: number,
    /** The bucket of the feature's hash (its high bits scaled to the buckets). */
    readonly bucket: number,
    /** Whether the feature subtracts its value (the hash's low bit). */
    readonly negative: boolean,
  ) {}
}

/** Slots kept (stems, pairs and CJK bigrams together) before the tables start over. */
const keptSlotsLimit = 250_000;

/**
 * The lexical features of the texts an embedder is given, one text at a time: `begin`, then
 * `add` each occurrence in text order, then `touched` lists each distinct feature once, in the
 * order of its first occurrence, with its count and weight sum. That is the order and the
 * arithmetic of a `Map` from the feature's string (`w\u0001stem`, `b\u0001stem\u0001stem`,
 * `c\u0001gram`) to its count and weight, which it replaces: the same sums, bit for bit, but
 * each feature's string is made and hashed once for all texts instead of once per text (a
 * pair, once per occurrence), and no map is made per text.
 *
 * The tables start over between texts when they hold too many slots; a stem longer than
 * `keptLength` (and every pair it is in) is kept for the current text only.
 */
export class LexicalFeatures {
  private readonly stems = new Map<string, LexicalSlot>();
  private readonly grams = new Map<string, LexicalSlot>();
  /** The slots of stem pairs, by the `id`s of their two stems' slots. */
  private readonly pairs = new PairTable<LexicalSlot>();
  /** Features of long stems, for the current text only (by their string). */
  private readonly transient = new Map<string, LexicalSlot>();
  private kept = 0;
  /** Slots made (each one's `id`), transient ones included. */
  private made = 0;
  private text = 0;
  /** The distinct features of the current text, in the order of their first occurrence. */
  readonly touched: LexicalSlot[] = [];

  constructor(
    private readonly buckets: number,
    private readonly keptLength: number,
  ) {}

  /**
   * Starts a text: every feature's count and weight from nothing. True when the tables started
   * over: a slot handed out before is not the one of its feature any more, so whoever keeps
   * slots (the embedder's word cache) lets go of them.
   */
  begin(): boolean {
    this.text += 1;
    this.touched.length = 0;
    if (this.transient.size > 0) this.transient.clear();
    if (this.kept < keptSlotsLimit) return false;
    this.stems.clear();
    this.grams.clear();
    this.pairs.clear();
    this.made = 0;
    this.kept = 0;
    return true;
  }

  /** The slot of the stem feature `w\u0001stem`. */
  stemSlot(stem: string): LexicalSlot {
    if (stem.length > this.keptLength) return this.transientSlot(`w\u0001${stem}`);
    let slot = this.stems.get(stem);
    if (slot === undefined) {
      slot = this.newSlot(`w\u0001${stem}`);
      this.stems.set(stem, slot);
      this.kept += 1;
    }
    return slot;
  }

  /** The slot of the pair feature `b\u0001first\u0001second` (`firstSlot` and `secondSlot` are the stems' slots). */
  pairSlot(first: string, firstSlot: LexicalSlot, second: string, secondSlot: LexicalSlot): LexicalSlot {
    if (first.length > this.keptLength || second.length > this.keptLength) return this.transientSlot(`b\u0001${first}\u0001${second}`);
    let slot = this.pairs.get(firstSlot.id, secondSlot.id);
    if (slot === undefined) {
      slot = this.newSlot(`b\u0001${first}\u0001${second}`);
      this.pairs.add(firstSlot.id, secondSlot.id, slot);
      this.kept += 1;
    }
    return slot;
  }

  /** The slot of the CJK bigram feature `c\u0001gram`. */
  gramSlot(gram: string): LexicalSlot {
    let slot = this.grams.get(gram);
    if (slot === undefined) {
      slot = this.newSlot(`c\u0001${gram}`);
      this.grams.set(gram, slot);
      this.kept += 1;
    }
    return slot;
  }

  /** One occurrence of `slot`'s feature in the current text, of `weight`. */
  add(slot: LexicalSlot, weight: number): void {
    if (slot.text !== this.text) {
      slot.text = this.text;
      slot.count = 1;
      slot.weight = weight;
      this.touched.push(slot);
    } else {
      slot.count += 1;
      slot.weight += weight;
    }
  }

  private transientSlot(feature: string): LexicalSlot {
    let slot = this.transient.get(feature);
    if (slot === undefined) {
      slot = this.newSlot(feature);
      this.transient.set(feature, slot);
    }
    return slot;
  }

  private newSlot(feature: string): LexicalSlot {
    const hash = featureHash(feature);
    this.made += 1;
    return new LexicalSlot(this.made, bucketOf(hash, this.buckets), (hash & 1) === 1);
  }
}

/** The bucket of a hash: its high bits scaled to `buckets` (the low bit gives the sign). */
export function bucketOf(hash: number, buckets: number): number {
  return Math.floor((hash / 4294967296) * buckets);
}
