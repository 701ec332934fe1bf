import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import type { LexicalIndex } from "../snapshot/index-snapshot.js";
import type { Postings } from "./lexicon.js";
import { boundBlockPostings, blockBoundsOf } from "./term-score-bounds.js";
import type { BlockBounds } from "./term-score-bounds.js";
import type { VerifiedFile } from "../format/verified-file.js";

/**
 * The bounds file of format 5 holds every term's block bounds (`blockBoundsOf`, with the
 * generation's length norms), one after another:
 *   u32 blockStarts[terms + 1]  where each term's blocks start (a term of `n` postings has
 *                               ceil(n / boundBlockPostings) blocks)
 *   f64 bounds[blocks]          each block's largest part, tf / (tf + norm)
 *   u32 firsts[blocks]          each block's first slot
 *   u32 lasts[blocks]           each block's last slot
 * so a reader's first search of a term reads a few bytes per 64 postings instead of making a
 * pass over all of them. Its numbers are little-endian: the writer and the reader of the
 * three arrays use typed arrays, so the machine's byte order, which is little-endian on
 * every platform this package's native dependencies are built for (x64, arm64).
 */
export function scoreBoundsLayout(terms: number, blocks: number) {
  const boundsAt = 4 * (terms + 1);
  const firstsAt = boundsAt + 8 * blocks;
  const lastsAt = firstsAt + 4 * blocks;
  return { boundsAt, firstsAt, lastsAt, bytes: lastsAt + 4 * blocks };
}

/** The bounds file of a lexicon whose records have `norms` (`lengthNorms`), as the parts to write in order. */
export function encodeScoreBounds(lexical: LexicalIndex, norms: Float32Array): Uint8Array[] {
  const { termStarts, postingSlots, postingFrequencies, terms } = lexical;
  const blockStarts = new Uint32Array(terms.length + 1);
  for (let term = 0; term < terms.length; term += 1) {
    const postings = (termStarts[term + 1] as number) - (termStarts[term] as number);
    blockStarts[term + 1] = (blockStarts[term] as number) + Math.ceil(postings / boundBlockPostings);
  }
  const blocks = blockStarts[terms.length] as number;
  const bounds = new Float64Array(blocks);
  const firsts = new Uint32Array(blocks);
  const lasts = new Uint32Array(blocks);
  for (let term = 0; term < terms.length; term += 1) {
    const start = termStarts[term] as number;
    const end = termStarts[term + 1] as number;
    const stored = blockBoundsOf({ slots: postingSlots.subarray(start, end), frequencies: postingFrequencies.subarray(start, end) }, norms);
    const at = blockStarts[term] as number;
    bounds.set(stored.blocks, at);
    firsts.set(stored.blockFirst, at);
    lasts.set(stored.blockLast, at);
  }
  return [blockStarts, bounds, firsts, lasts].map((array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
}

/**
 * A bounds file of at most this many bytes is read whole at the first term's bounds and kept
 * (1.4 MB for a segment of 50,000 SciFact chunks): each term's bounds are then views of it
 * instead of four reads, which a search of several segments makes per query term and
 * segment. Larger files are read per term (their block starts kept when they fit this bound),
 * so a reader keeps at most about 6 MB per segment (the file and its bounds copied once),
 * not memory growing with the segment's size.
 */
export const wholeBoundsBytes = 4 * 1024 * 1024;

/** The arrays of a bounds file held in memory (`wholeBoundsBytes`). */
interface WholeBounds {
  blockStarts: Uint32Array;
  bounds: Float64Array;
  firsts: Uint32Array;
  lasts: Uint32Array;
}

/**
 * The bounds file of a format-5 generation: read whole at the first term's bounds when it
 * holds at most `wholeLimit` bytes (default `wholeBoundsBytes`), else per term on demand in
 * three reads (its blocks' bounds, first and last slots), with the block starts of every term
 * kept in memory when they hold at most `wholeLimit` bytes (4 a term; else a fourth read per
 * term). Either way the file's size is checked against its block count, and each term's
 * bounds against its postings.
 */
export class StoredScoreBounds {
  private layout: (ReturnType<typeof scoreBoundsLayout> & { blocks: number }) | undefined;
  /** The whole file's arrays; null until the first read, undefined when the file is read per term. */
  private whole: WholeBounds | undefined | null = null;
  /** Every term's first block, when the file is read per term and they fit `wholeLimit`. */
  private blockStarts: Uint32Array | undefined;

  constructor(
    private readonly file: VerifiedFile,
    private readonly terms: number,
    private readonly wholeLimit = wholeBoundsBytes,
  ) {}

  /**
   * Term `index`'s block bounds, checked against its `postings`: as many blocks as they
   * need, each block's first and last slot theirs, each bound above 0 (every posting adds
   * something) and at most 1. That catches bounds that belong to other postings; a bound
   * that is only too low is not caught here (damaged bytes are caught by the checksums).
   * The arrays returned are shared when the file is held whole: callers must not change them.
   */
  read(index: number, postings: Postings): BlockBounds {
    const { slots } = postings;
    const layout = this.layout ?? this.readLayout();
    const whole = this.whole === null ? this.readWhole(layout) : this.whole;
    let start: number;
    let end: number;
    const starts = whole?.blockStarts ?? this.blockStarts;
    if (starts !== undefined) {
      start = starts[index] as number;
      end = starts[index + 1] as number;
    } else {
      // Both ends of the term's blocks in one read.
      const ends = new DataView(this.file.read(4 * index, 8).buffer);
      start = ends.getUint32(0, true);
      end = ends.getUint32(4, true);
    }
    const count = end - start;
    const needed = Math.ceil(slots.length / boundBlockPostings);
    if (count !== needed || end > layout.blocks) {
      this.fail(`has ${count} blocks for term ${index}, whose ${slots.length} postings need ${needed}`);
    }
    const bounds =
      whole !== undefined
        ? {
            blocks: whole.bounds.subarray(start, end),
            blockFirst: whole.firsts.subarray(start, end),
            blockLast: whole.lasts.subarray(start, end),
          }
        : {
            blocks: new Float64Array(this.file.read(layout.boundsAt + 8 * start, 8 * count).buffer),
            blockFirst: new Uint32Array(this.file.read(layout.firstsAt + 4 * start, 4 * count).buffer),
            blockLast: new Uint32Array(this.file.read(layout.lastsAt + 4 * start, 4 * count).buffer),
          };
    for (let block = 0; block < count; block += 1) {
      const first = slots[block * boundBlockPostings];
      const last = slots[Math.min(slots.length, (block + 1) * boundBlockPostings) - 1];
      const bound = bounds.blocks[block] as number;
      if (bounds.blockFirst[block] !== first || bounds.blockLast[block] !== last || !(bound > 0 && bound <= 1)) {
        this.fail(`does not match the postings of term ${index} in block ${block}`);
      }
    }
    return bounds;
  }

  private readLayout() {
    const { file, terms } = this;
    if (file.size < 4 * (terms + 1)) this.fail(`has ${file.size} bytes, too few for the block starts of ${terms} terms`);
    const blocks = this.blockStart(terms);
    const layout = { ...scoreBoundsLayout(terms, blocks), blocks };
    if (file.size !== layout.bytes) this.fail(`has ${file.size} bytes, expected ${layout.bytes} for ${blocks} blocks`);
    this.layout = layout;
    return layout;
  }

  /** The whole file in memory when it fits `wholeLimit` (one read), else undefined (and the block starts kept when they fit). */
  private readWhole(layout: NonNullable<StoredScoreBounds["layout"]>): WholeBounds | undefined {
    // `whole` is settled only once the reads succeed: a damaged block found here is refused
    // again at the next search, not passed over by reads per term that miss it.
    if (this.file.size > this.wholeLimit) {
      const bytes = 4 * (this.terms + 1);
      if (bytes <= this.wholeLimit) this.blockStarts = new Uint32Array(this.file.read(0, bytes).buffer, 0, this.terms + 1);
      this.whole = undefined;
      return undefined;
    }
    // A fresh buffer at offset 0: the u32 arrays are views of it; the f64 bounds start at a
    // multiple of 4 only, so they are copied once into an array of their own.
    const bytes = this.file.read(0, this.file.size);
    const { blocks } = layout;
    this.whole = {
      blockStarts: new Uint32Array(bytes.buffer, 0, this.terms + 1),
      bounds: new Float64Array(bytes.buffer.slice(layout.boundsAt, layout.firstsAt)),
      firsts: new Uint32Array(bytes.buffer, layout.firstsAt, blocks),
      lasts: new Uint32Array(bytes.buffer, layout.lastsAt, blocks),
    };
    return this.whole;
  }

  private blockStart(index: number): number {
    return new DataView(this.file.read(4 * index, 4).buffer).getUint32(0, true);
  }

  private fail(what: string): never {
    throw new CorruptIndexError({ directory: this.file.directory, reason: `${this.file.name} ${what}` });
  }
}
