import type { LexicalIndex } from "../snapshot/index-snapshot.js";
import { appendLivePostings } from "./append-live-postings.js";
import type { PostingsTarget } from "./append-live-postings.js";
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
  const heap = new TermCursorHeap(lexicals.length);
  lexicals.forEach((lexical, part) => {
    if (lexical !== undefined && lexical.terms.length > 0) heap.push(part, lexical.terms[0] as string);
  });
  const sources = lexicals.map((lexical) => ({
    slots: lexical?.postingSlots ?? new Uint32Array(0),
    frequencies: lexical?.postingFrequencies ?? new Uint16Array(0),
  }));
  const mappings = lexicals.map((_, part) => ({ base: slots.bases[part] as number, composed: slots.composedTable(part) }));
  const range = { from: 0, to: 0 };
  let cursor = 0;
  while (heap.size > 0) {
    const term = heap.topTerm();
    const start = cursor;
    // Every part holding the term, in part order (the heap breaks ties by part).
    while (heap.size > 0 && heap.topTerm() === term) {
      const part = heap.topPart();
      const lexical = lexicals[part] as LexicalIndex;
      const index = cursors[part] as number;
      range.from = lexical.termStarts[index] as number;
      range.to = lexical.termStarts[index + 1] as number;
      cursor = appendLivePostings(target, cursor, sources[part] as PostingsTarget, range, mappings[part] as (typeof mappings)[number]);
      cursors[part] = index + 1;
      if (index + 1 < lexical.terms.length) heap.replaceTop(lexical.terms[index + 1] as string);
      else heap.removeTop();
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
