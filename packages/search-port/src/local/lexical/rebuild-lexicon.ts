import type { IndexSnapshot, LexicalIndex } from "../snapshot/index-snapshot.js";
import { MemoryLexicon } from "./lexicon.js";
import { PendingChanges } from "../snapshot/pending-changes.js";

/**
 * The snapshot with its lexicon built again from the records' texts by `analyse` (ids,
 * records and vectors stay as they are): what a writer does with an index of another
 * analyser version. `textOf(slot)` is the indexed text of a slot.
 */
export function rebuildLexicon(
  snapshot: IndexSnapshot,
  textOf: (slot: number) => string,
  analyse: (text: string) => string[],
): IndexSnapshot {
  const dictionary = new PendingChanges(0);
  const slotTerms: Uint32Array[] = [];
  const slotFrequencies: Uint16Array[] = [];
  const lengths = new Uint32Array(snapshot.count);
  let totalLength = 0;
  for (let slot = 0; slot < snapshot.count; slot += 1) {
    const counted = dictionary.countTerms(analyse(textOf(slot)));
    slotTerms.push(counted.terms);
    slotFrequencies.push(counted.frequencies);
    let length = 0;
    for (const frequency of counted.frequencies) length += frequency;
    lengths[slot] = length;
    totalLength += length;
  }
  const order = dictionary.dictionaryTerms.map((_, id) => id);
  order.sort((left, right) => {
    const a = dictionary.dictionaryTerms[left] as string;
    const b = dictionary.dictionaryTerms[right] as string;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  const rank = new Uint32Array(order.length);
  order.forEach((id, position) => {
    rank[id] = position;
  });
  const termStarts = new Uint32Array(order.length + 1);
  for (const terms of slotTerms) {
    for (const id of terms) {
      const next = (rank[id] as number) + 1;
      termStarts[next] = (termStarts[next] as number) + 1;
    }
  }
  for (let term = 0; term < order.length; term += 1) termStarts[term + 1] = (termStarts[term + 1] as number) + (termStarts[term] as number);
  const total = termStarts[order.length] as number;
  const postingSlots = new Uint32Array(total);
  const postingFrequencies = new Uint16Array(total);
  const cursors = termStarts.slice(0, order.length);
  // Slots in increasing order, so each term's postings come out sorted by slot.
  slotTerms.forEach((terms, slot) => {
    const frequencies = slotFrequencies[slot] as Uint16Array;
    terms.forEach((id, position) => {
      const term = rank[id] as number;
      const cursor = cursors[term] as number;
      postingSlots[cursor] = slot;
      postingFrequencies[cursor] = frequencies[position] as number;
      cursors[term] = cursor + 1;
    });
  });
  const lexical: LexicalIndex = {
    terms: order.map((id) => dictionary.dictionaryTerms[id] as string),
    termStarts,
    postingSlots,
    postingFrequencies,
    lengths,
    totalLength,
  };
  // Only writers rebuild, and a writer's snapshot is held in memory (no lazy `vectors` getter to lose).
  const { count, keys, vectors, records } = snapshot;
  return { count, keys, lexicon: new MemoryLexicon(lexical), vectors, records };
}
