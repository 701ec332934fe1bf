import type { LexicalSegment } from "../lexical/lexical-segment.js";
import { averageLength, normsOf } from "../lexical/length-norms.js";
import type { Postings } from "../lexical/lexicon.js";
import { rescaledBlockBounds } from "../lexical/rescale-block-bounds.js";
import { blockBoundsOf, boundBlockPostings } from "../lexical/term-score-bounds.js";
import type { BlockBounds } from "../lexical/term-score-bounds.js";
import type { SlotMap } from "./slot-map.js";

/**
 * Below this many postings a segment's term gets its block bounds from one pass over its
 * postings, already in memory (a few microseconds), rather than from four reads of the
 * segment's bounds file.
 */
export const storedBoundsLeast = 16 * boundBlockPostings;

/**
 * Part `part` of a composed snapshot as a `LexicalSegment`: its postings searched in place, its
 * norms made with `average` (the average length of the snapshot's live records, so the very
 * norms one index of them gives), its stored block bounds (made with its own average when it
 * was written) rescaled to that average (`rescaledBlockBounds`), or computed from its postings
 * when it stores none or the list is short.
 */
export function composedLexicalSegment(slots: SlotMap, part: number, average: number): LexicalSegment {
  const { snapshot } = slots.parts[part] as SlotMap["parts"][number];
  const { lexicon } = snapshot;
  const base = slots.bases[part] as number;
  const live = slots.liveTable(part);
  const end = slots.bases[part + 1] as number;
  let norms: Float32Array | undefined;
  const segmentNorms = (): Float32Array => {
    norms ??= normsOf(lexicon.lengths(), snapshot.count, average);
    return norms;
  };
  return {
    position: part,
    count: snapshot.count,
    base,
    composed: slots.composedTable(part),
    ownSlot: (slot) => {
      if (slot < base || slot >= end) return -1;
      return live === undefined ? slot - base : (live[slot - base] as number);
    },
    norms: segmentNorms,
    blockBounds: (termIndex: number, postings: Postings): BlockBounds => {
      const stored = postings.slots.length >= storedBoundsLeast ? lexicon.storedBounds?.(termIndex, postings) : undefined;
      if (stored === undefined) return blockBoundsOf(postings, segmentNorms());
      return rescaledBlockBounds(stored, averageLength(lexicon.totalLength, snapshot.count), average);
    },
  };
}
