import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { Postings } from "./lexicon.js";
import { blockBoundsOf } from "./term-score-bounds.js";
import type { BlockBounds } from "./term-score-bounds.js";
import { lengthNorms } from "./length-norms.js";

/**
 * A stretch of a snapshot's records that a lexical search reads in place, in slots of its
 * own (0..count-1): the whole snapshot, or one segment of a composed one (`composeSnapshot`),
 * whose postings are searched where they lie instead of being gathered into one list. Scores
 * come from the snapshot's statistics (its record count, document frequencies and average
 * length), so a record scores as it would in one index of the live records.
 */
export interface LexicalSegment {
  /** Its place among the snapshot's segments, from 0; segments come in snapshot slot order. */
  readonly position: number;
  /** Slots of its own, deleted ones included. */
  readonly count: number;
  /** The snapshot slot of its first live slot. */
  readonly base: number;
  /** Its slot -> snapshot slot table (-1: a deleted record), or undefined when none is deleted (then `base + slot`). */
  readonly composed: Int32Array | undefined;
  /** Its own slot of snapshot slot `slot`, or -1 when another segment holds that record. */
  ownSlot(slot: number): number;
  /** k1 * (1 - b + b * length / average length) per own slot, the average over the snapshot's live records. */
  norms(): Float32Array;
  /**
   * Each block's bound of its term `termIndex` (an index of its own lexicon), at least the
   * largest part `tf / (tf + norm)` (`norm` from `norms()`) of a posting in the block: what
   * the index stores, converted to the snapshot's average when it was stored with another,
   * else one pass over `postings`.
   */
  blockBounds(termIndex: number, postings: Postings): BlockBounds;
}

/** A query term's postings in one segment: in the segment's own slots, in memory valid until the next `beginSearch`. */
export interface PostingsPiece {
  segment: LexicalSegment;
  /** The term's index in the segment's lexicon. */
  termIndex: number;
  postings: Postings;
  /** Under which number the snapshot keeps the piece's bounds (`termScoreBounds`). */
  boundsKey: number;
}

/** The whole of a snapshot of one lexicon as a single segment. */
export function wholeSnapshotSegment(snapshot: IndexSnapshot): LexicalSegment {
  return {
    position: 0,
    count: snapshot.count,
    base: 0,
    composed: undefined,
    ownSlot: (slot) => slot,
    norms: () => lengthNorms(snapshot),
    blockBounds: (termIndex, postings) =>
      snapshot.lexicon.storedBounds?.(termIndex, postings) ?? blockBoundsOf(postings, lengthNorms(snapshot)),
  };
}

/** The snapshot slot of `slot` of `segment`, or -1 when that record is deleted. */
export function snapshotSlot(segment: LexicalSegment, slot: number): number {
  return segment.composed === undefined ? segment.base + slot : (segment.composed[slot] as number);
}
