import type { HashedFileWriter } from "../format/hashed-file-writer.js";
import { encodeTermEnds } from "../lexical/file-lexicon.js";
import { blockBoundsOf, boundBlockPostings } from "../lexical/term-score-bounds.js";
import { TermCursorHeap } from "../segments/term-cursor-heap.js";
import type { MergeInput } from "./merge-keys.js";
import { TypedOutput } from "./typed-output.js";

/** Where each segment's slots go in the merged segment: `base + slot`, or through `composed` (-1: deleted). */
export interface SlotMapping {
  base: number;
  composed: Int32Array | undefined;
}

/**
 * The merged term dictionary: every term a live record holds, sorted, with its live postings
 * count and, per term, the segments holding it (in segment order) and its index in each.
 * It grows with the vocabulary, not with the records.
 */
export interface MergedTerms {
  terms: string[];
  counts: number[];
  /** Term `t`'s holders are `holderInputs[holderStarts[t] .. holderStarts[t + 1]]` (and `holderTerms` alike). */
  holderStarts: number[];
  holderInputs: number[];
  holderTerms: number[];
  postings: number;
}

/**
 * A k-way merge of the segments' sorted terms: a term held by a segment without deletions is
 * live for sure, one held only by segments with deletions counts its live postings (read
 * in term order); a term left without one is dropped, as in an index of the live records.
 */
export function mergeTerms(inputs: readonly MergeInput[], mappings: readonly SlotMapping[]): MergedTerms {
  const merged: MergedTerms = { terms: [], counts: [], holderStarts: [0], holderInputs: [], holderTerms: [], postings: 0 };
  const cursors = new Uint32Array(inputs.length);
  const heap = new TermCursorHeap(inputs.length);
  inputs.forEach(({ source }, at) => {
    if (source.terms.length > 0) heap.push(at, source.terms[0] as string);
  });
  while (heap.size > 0) {
    const term = heap.topTerm();
    let count = 0;
    const holdersFrom = merged.holderInputs.length;
    while (heap.size > 0 && heap.topTerm() === term) {
      const at = heap.topPart();
      const { source } = inputs[at] as MergeInput;
      const index = cursors[at] as number;
      const from = source.termStarts[index] as number;
      const to = source.termStarts[index + 1] as number;
      const composed = (mappings[at] as SlotMapping).composed;
      if (composed === undefined) count += to - from;
      else {
        const { slots } = source.postings(from, to);
        for (let posting = 0; posting < slots.length; posting += 1) if ((composed[slots[posting] as number] as number) >= 0) count += 1;
      }
      merged.holderInputs.push(at);
      merged.holderTerms.push(index);
      cursors[at] = index + 1;
      if (index + 1 < source.terms.length) heap.replaceTop(source.terms[index + 1] as string);
      else heap.removeTop();
    }
    if (count === 0) {
      merged.holderInputs.length = holdersFrom;
      merged.holderTerms.length = holdersFrom;
      continue;
    }
    merged.terms.push(term);
    merged.counts.push(count);
    merged.holderStarts.push(merged.holderInputs.length);
    merged.postings += count;
  }
  return merged;
}

/** One term's live postings over every segment, gathered into memory used again term after term. */
class TermGatherer {
  private slots = new Uint32Array(1024);
  private frequencies = new Uint16Array(1024);

  constructor(
    private readonly inputs: readonly MergeInput[],
    private readonly mappings: readonly SlotMapping[],
    private readonly merged: MergedTerms,
  ) {}

  gather(term: number): { slots: Uint32Array; frequencies: Uint16Array } {
    const { merged } = this;
    const count = merged.counts[term] as number;
    if (this.slots.length < count) {
      this.slots = new Uint32Array(Math.max(count, 2 * this.slots.length));
      this.frequencies = new Uint16Array(this.slots.length);
    }
    let at = 0;
    for (let holder = merged.holderStarts[term] as number; holder < (merged.holderStarts[term + 1] as number); holder += 1) {
      const input = merged.holderInputs[holder] as number;
      const index = merged.holderTerms[holder] as number;
      const { source } = this.inputs[input] as MergeInput;
      const postings = source.postings(source.termStarts[index] as number, source.termStarts[index + 1] as number);
      const { base, composed } = this.mappings[input] as SlotMapping;
      for (let posting = 0; posting < postings.slots.length; posting += 1) {
        const slot = postings.slots[posting] as number;
        const to = composed === undefined ? base + slot : (composed[slot] as number);
        if (to < 0) continue;
        this.slots[at] = to;
        this.frequencies[at] = postings.frequencies[posting] as number;
        at += 1;
      }
    }
    return { slots: this.slots.subarray(0, at), frequencies: this.frequencies.subarray(0, at) };
  }
}

/**
 * Writes the postings file of the merged segment (the layout `postingsLayout` reads: term
 * starts, slots, lengths, frequencies, term ends) in two passes over the segments' postings,
 * and returns the parts of its bounds file (as `encodeScoreBounds` makes them, with `norms`),
 * worked out per term as its postings are written: a few bytes per `boundBlockPostings` postings.
 */
export async function writeMergedPostings(
  writer: HashedFileWriter,
  inputs: readonly MergeInput[],
  mappings: readonly SlotMapping[],
  merged: MergedTerms,
  lengths: Uint32Array,
  norms: Float32Array,
): Promise<Uint8Array[]> {
  const termCount = merged.terms.length;
  const termStarts = new Uint32Array(termCount + 1);
  const blockStarts = new Uint32Array(termCount + 1);
  for (let term = 0; term < termCount; term += 1) {
    const count = merged.counts[term] as number;
    termStarts[term + 1] = (termStarts[term] as number) + count;
    blockStarts[term + 1] = (blockStarts[term] as number) + Math.ceil(count / boundBlockPostings);
  }
  await writer.write(new Uint8Array(termStarts.buffer));
  const blocks = blockStarts[termCount] as number;
  const bounds = new Float64Array(blocks);
  const firsts = new Uint32Array(blocks);
  const lasts = new Uint32Array(blocks);
  const gatherer = new TermGatherer(inputs, mappings, merged);
  const slotOutput = new TypedOutput(writer, (length) => new Uint32Array(length));
  for (let term = 0; term < termCount; term += 1) {
    const postings = gatherer.gather(term);
    slotOutput.pushAll(postings.slots);
    const stored = blockBoundsOf(postings, norms);
    const at = blockStarts[term] as number;
    bounds.set(stored.blocks, at);
    firsts.set(stored.blockFirst, at);
    lasts.set(stored.blockLast, at);
    await slotOutput.drain();
  }
  await slotOutput.flush();
  await writer.write(new Uint8Array(lengths.buffer, lengths.byteOffset, lengths.byteLength));
  const frequencyOutput = new TypedOutput(writer, (length) => new Uint16Array(length));
  for (let term = 0; term < termCount; term += 1) {
    frequencyOutput.pushAll(gatherer.gather(term).frequencies);
    await frequencyOutput.drain();
  }
  await frequencyOutput.flush();
  await writer.write(encodeTermEnds(merged.terms));
  return [blockStarts, bounds, firsts, lasts].map((array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
}
