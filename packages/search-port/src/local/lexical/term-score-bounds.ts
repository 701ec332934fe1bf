import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { PostingsPiece } from "./lexical-segment.js";
import type { Postings } from "./lexicon.js";

/** Postings per block of `TermScoreBounds.blocks`. */
export const boundBlockPostings = 64;

/** log2 of the slots per window of `TermScoreBounds.windows`. */
export const windowShift = 12;

/** A snapshot keeps this many bytes of bounds at most, the least recently used terms dropped first. */
export const keptBoundBytes = 32 * 1024 * 1024;

/**
 * How much one term can add to a record's lexical score, in parts of its `scaled` share
 * (the largest `tf / (tf + norm)`, `norm`: `lengthNorms`), over stretches of its postings:
 * - `blocks[b]`: over its postings `b * boundBlockPostings` to the next block's first;
 *   `blockLast[b]` is the last slot of that block;
 * - `windows[w]`: at least its largest over the slots `w << windowShift` to the next window's
 *   first: the largest of the blocks whose slots reach into the window (0: none does, so no
 *   slot of the window holds the term).
 */
export interface TermScoreBounds {
  blocks: Float64Array;
  blockLast: Uint32Array;
  windows: Float64Array;
}

/** A term's block bounds (`TermScoreBounds.blocks`) with each block's first and last slot. */
export interface BlockBounds {
  blocks: Float64Array;
  blockFirst: Uint32Array;
  blockLast: Uint32Array;
}

/**
 * The `TermScoreBounds` of a term (by its index in the snapshot's lexicon), the first time a
 * search needs them: from its block bounds as the index stores them (format 5: the lexicon's
 * `storedBounds`), else from one pass over its postings (`blockBoundsOf`). They are then kept
 * with the snapshot (`keptBoundBytes` at most: the least recently used terms go first; a term
 * whose bounds alone are larger is not kept).
 */
export function termScoreBounds(snapshot: IndexSnapshot, termIndex: number, postings: Postings, norms: Float32Array): TermScoreBounds {
  return keptScoreBounds(
    snapshot,
    termIndex,
    snapshot.count,
    () => snapshot.lexicon.storedBounds?.(termIndex, postings) ?? blockBoundsOf(postings, norms),
  );
}

/**
 * The `TermScoreBounds` of a term's postings in one segment of the snapshot (`PostingsPiece`),
 * over the segment's own slots, from the segment's block bounds; kept with the snapshot as
 * `termScoreBounds` keeps them, under the piece's `boundsKey`.
 */
export function pieceScoreBounds(snapshot: IndexSnapshot, piece: PostingsPiece): TermScoreBounds {
  const { segment, termIndex, postings } = piece;
  return keptScoreBounds(snapshot, piece.boundsKey, segment.count, () => segment.blockBounds(termIndex, postings));
}

/** The bounds kept under `key`, else made from `blockBounds()` over `count` slots and kept. */
function keptScoreBounds(snapshot: IndexSnapshot, key: number, count: number, blockBounds: () => BlockBounds): TermScoreBounds {
  snapshot.scoreBounds ??= { byTerm: new Map(), bytes: 0 };
  const kept = snapshot.scoreBounds;
  const known = kept.byTerm.get(key);
  if (known !== undefined) {
    // Most recently used last.
    kept.byTerm.delete(key);
    kept.byTerm.set(key, known);
    return known;
  }
  const { blocks, blockFirst, blockLast } = blockBounds();
  const windows = new Float64Array(Math.ceil(count / 2 ** windowShift));
  for (let block = 0; block < blocks.length; block += 1) {
    const largest = blocks[block] as number;
    // Every window the block's slots reach takes its bound: a window bound may exceed the
    // best posting there (never fall below it), and is set per block, not per posting.
    const last = Math.min((blockLast[block] as number) >>> windowShift, windows.length - 1);
    for (let window = (blockFirst[block] as number) >>> windowShift; window <= last; window += 1) {
      if (largest > (windows[window] as number)) windows[window] = largest;
    }
  }
  const bounds = { blocks, blockLast, windows };
  const bytes = boundBytes(bounds);
  if (bytes > keptBoundBytes) return bounds;
  // The least recently used terms make room.
  for (const [term, old] of kept.byTerm) {
    if (kept.bytes + bytes <= keptBoundBytes) break;
    kept.byTerm.delete(term);
    kept.bytes -= boundBytes(old);
  }
  kept.byTerm.set(key, bounds);
  kept.bytes += bytes;
  return bounds;
}

/**
 * Each block's largest part (`tf / (tf + norm)`) with its first and last slot, in one pass
 * over a term's postings: what `termScoreBounds` starts from, and what an index of format 5
 * stores per term (stored-score-bounds.ts), so that a reader need not make this pass.
 */
export function blockBoundsOf(postings: Postings, norms: Float32Array): BlockBounds {
  const { slots, frequencies } = postings;
  const length = slots.length;
  const blocks = new Float64Array(Math.ceil(length / boundBlockPostings));
  const blockFirst = new Uint32Array(blocks.length);
  const blockLast = new Uint32Array(blocks.length);
  for (let block = 0; block < blocks.length; block += 1) {
    const start = block * boundBlockPostings;
    const end = Math.min(length, start + boundBlockPostings);
    let largest = 0;
    for (let posting = start; posting < end; posting += 1) {
      const frequency = frequencies[posting] as number;
      const part = frequency / (frequency + (norms[slots[posting] as number] as number));
      if (part > largest) largest = part;
    }
    blocks[block] = largest;
    blockFirst[block] = slots[start] as number;
    blockLast[block] = slots[end - 1] as number;
  }
  return { blocks, blockFirst, blockLast };
}

function boundBytes({ blocks, blockLast, windows }: TermScoreBounds): number {
  return blocks.byteLength + blockLast.byteLength + windows.byteLength;
}
