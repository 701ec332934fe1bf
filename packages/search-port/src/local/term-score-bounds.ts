import type { IndexSnapshot } from "./index-snapshot.js";
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

/**
 * The `TermScoreBounds` of a term (by its index in the snapshot's lexicon), computed in one
 * pass over its postings the first time a search needs them, then kept with the snapshot
 * (`keptBoundBytes` at most: the least recently used terms go first; a term whose bounds
 * alone are larger is not kept).
 */
export function termScoreBounds(snapshot: IndexSnapshot, termIndex: number, postings: Postings, norms: Float32Array): TermScoreBounds {
  snapshot.scoreBounds ??= { byTerm: new Map(), bytes: 0 };
  const kept = snapshot.scoreBounds;
  const known = kept.byTerm.get(termIndex);
  if (known !== undefined) {
    // Most recently used last.
    kept.byTerm.delete(termIndex);
    kept.byTerm.set(termIndex, known);
    return known;
  }
  const { slots, frequencies } = postings;
  const length = slots.length;
  const blocks = new Float64Array(Math.ceil(length / boundBlockPostings));
  const blockLast = new Uint32Array(blocks.length);
  const windows = new Float64Array(Math.ceil(snapshot.count / 2 ** windowShift));
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
    const last = slots[end - 1] as number;
    blockLast[block] = last;
    // Every window the block's slots reach takes its bound: a window bound may exceed the
    // best posting there (never fall below it), and is set per block, not per posting.
    for (let window = (slots[start] as number) >>> windowShift; window <= last >>> windowShift; window += 1) {
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
  kept.byTerm.set(termIndex, bounds);
  kept.bytes += bytes;
  return bounds;
}

function boundBytes({ blocks, blockLast, windows }: TermScoreBounds): number {
  return blocks.byteLength + blockLast.byteLength + windows.byteLength;
}
