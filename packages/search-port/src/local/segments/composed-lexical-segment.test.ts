import { lexicalTerms } from "@lookup-knowledge/text";
import { describe, expect, it, vi } from "vitest";
import { lengthNorms } from "../lexical/length-norms.js";
import type { Lexicon } from "../lexical/lexicon.js";
import { blockBoundsOf } from "../lexical/term-score-bounds.js";
import { searchSnapshot } from "../reader/search-snapshot.js";
import { memoryPart, vocabulary, zipfWord } from "../test/composed-snapshot-test-fixtures.js";
import type { TestRecord } from "../test/composed-snapshot-test-fixtures.js";
import { random } from "../test/seeded-random-test-fixtures.js";
import { composeSnapshot } from "./compose-snapshot.js";
import type { SegmentPart } from "./segment-part.js";

/** Records of `words` words each (`words()` draws the count), ids from `prefix`. */
function records(count: number, prefix: string, words: () => number, vocabularyWords: string[], next: () => number): TestRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${index}`,
    docId: `${prefix}${index}`,
    content: Array.from({ length: words() }, () => zipfWord(vocabularyWords, next)).join(" "),
    metadata: { category: "alpha", rank: index % 7 },
    vector: undefined,
  }));
}

/** A part that stores its block bounds as a written segment does: computed with its own average length. */
function partStoringBounds(list: TestRecord[], deleted: Uint8Array): { part: SegmentPart; stored: ReturnType<typeof vi.fn> } {
  const snapshot = memoryPart(list, 0);
  const norms = lengthNorms(snapshot);
  const stored = vi.fn((_index: number, postings: Parameters<typeof blockBoundsOf>[0]) => blockBoundsOf(postings, norms));
  Object.assign(snapshot.lexicon, { storedBounds: stored as Lexicon["storedBounds"] });
  return { part: { snapshot, deleted }, stored };
}

describe("issue 36: a lexical search of segments with their stored block bounds", () => {
  it("issue 36: segments of long, short and mid-length records, bounds stored with their own averages, rank as one index of the live records", () => {
    const next = random(3601);
    const words = vocabulary(60, next);
    const long = records(1500, "l", () => 20 + Math.floor(40 * next()), words, next);
    const short = records(2500, "s", () => 1 + Math.floor(4 * next()), words, next);
    const middle = records(400, "m", () => 5 + Math.floor(15 * next()), words, next);
    const deletions = [long, short, middle].map((list) => Uint8Array.from(list, () => (next() < 0.1 ? 1 : 0)));
    const stores = [long, short, middle].map((list, index) => partStoringBounds(list, deletions[index] as Uint8Array));
    const composed = composeSnapshot(stores.map(({ part }) => part));
    const live = [long, short, middle].flatMap((list, index) => list.filter((_, slot) => deletions[index]?.[slot] !== 1));
    const single = memoryPart(live, 0);
    let compared = 0;
    for (let query = 0; query < 200; query += 1) {
      const text = Array.from({ length: 1 + Math.floor(6 * next()) }, () => zipfWord(words, next)).join(" ");
      const terms = lexicalTerms(text);
      for (const topK of [1, 5, 20]) {
        const named = (snapshot: typeof single) => {
          const { slots, ...rest } = searchSnapshot(snapshot, { terms, denseWeight: 0, topK }, 0.2);
          return { hits: slots.map(({ slot, ...scores }) => ({ id: snapshot.keys.id(slot), ...scores })), ...rest };
        };
        const expected = named(single);
        expect(named(composed), `${text} (topK ${topK})`).toEqual(expected);
        compared += expected.hits.length;
      }
    }
    expect(compared).toBeGreaterThan(3000);
    // Each segment's bounds of each term, as searches get them, bound every posting's part
    // under the live records' average (a too-low bound would drop hits only now and then).
    let bounded = 0;
    composed.lexicon.beginSearch?.();
    for (const word of words) {
      const index = composed.lexicon.find(lexicalTerms(word)[0] as string);
      if (index < 0) continue;
      for (const { segment, termIndex, postings } of composed.lexicon.pieces?.(index) ?? []) {
        const bounds = segment.blockBounds(termIndex, postings);
        const exact = blockBoundsOf(postings, segment.norms());
        for (const [block, largest] of exact.blocks.entries()) {
          expect(bounds.blocks[block], `${word}, segment ${segment.position}`).toBeGreaterThanOrEqual(largest);
        }
        bounded += exact.blocks.length;
      }
    }
    expect(bounded).toBeGreaterThan(100);
    // The stored bounds were read, in every segment with a long enough list, and rescaled.
    for (const { stored } of stores.slice(0, 2)) expect(stored).toHaveBeenCalled();
  });
});
