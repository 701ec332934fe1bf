import type { LexicalIndex } from "../snapshot/index-snapshot.js";
import { appendLivePostings } from "./append-live-postings.js";
import { liveLengths } from "./live-lengths.js";
import type { SlotMap } from "./slot-map.js";
import { TermCursorHeap } from "./term-cursor-heap.js";

/**
 * The inverted index of the live records of every part, as one index of them would hold it
 * (what `mergeSnapshot` builds for the same records in the same order): the parts' sorted
 * terms merged (a k-way merge), each term's postings part by part with composed slots,
 * deleted records' postings left out, terms left without postings dropped.
 */
export function mergeLiveLexicons(slots: SlotMap): LexicalIndex {
  const lexicals = slots.parts.map((part, index) => (slots.liveCount(index) > 0 ? part.snapshot.lexicon.arrays() : undefined));
  let capacity = 0;
  let termCapacity = 0;
  for (const lexical of lexicals) {
    capacity += lexical?.postingSlots.length ?? 0;
    termCapacity += lexical?.terms.length ?? 0;
  }
  const target = { slots: new Uint32Array(capacity), frequencies: new Uint16Array(capacity) };
  const termStarts = new Uint32Array(termCapacity + 1);
  const terms: string[] = [];
  const cursors = new Uint32Array(lexicals.length);
  const heap = new TermCursorHeap((part) => (lexicals[part] as LexicalIndex).terms[cursors[part] as number] as string);
  lexicals.forEach((lexical, part) => {
    if (lexical !== undefined && lexical.terms.length > 0) heap.push(part);
  });
  let cursor = 0;
  while (heap.size > 0) {
    const first = heap.pop();
    const term = (lexicals[first] as LexicalIndex).terms[cursors[first] as number] as string;
    const holding = [first];
    while (heap.size > 0 && (lexicals[heap.peek()] as LexicalIndex).terms[cursors[heap.peek()] as number] === term)
      holding.push(heap.pop());
    const start = cursor;
    for (const part of holding) {
      const lexical = lexicals[part] as LexicalIndex;
      const index = cursors[part] as number;
      const from = lexical.termStarts[index] as number;
      const to = lexical.termStarts[index + 1] as number;
      const postings = { slots: lexical.postingSlots.subarray(from, to), frequencies: lexical.postingFrequencies.subarray(from, to) };
      cursor = appendLivePostings(target, cursor, postings, slots.bases[part] as number, slots.composedTable(part));
      cursors[part] = index + 1;
      if (index + 1 < lexical.terms.length) heap.push(part);
    }
    if (cursor > start) {
      terms.push(term);
      termStarts[terms.length] = cursor;
    }
  }
  const { lengths, totalLength } = liveLengths(slots);
  return {
    terms,
    termStarts: termStarts.slice(0, terms.length + 1),
    postingSlots: cursor < capacity ? target.slots.slice(0, cursor) : target.slots,
    postingFrequencies: cursor < capacity ? target.frequencies.slice(0, cursor) : target.frequencies,
    lengths,
    totalLength,
  };
}
