import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { readManifest } from "../format/read-manifest.js";
import { isSegmented, segmentManifest } from "../format/segmented-manifest.js";
import { loadLazyGeneration } from "../reader/load-lazy-generation.js";
import { build, directory, useIndexFolder } from "../test/local-port-test-fixtures.js";
import { random } from "../test/seeded-random-test-fixtures.js";
import { StoredScoreBounds, wholeBoundsBytes } from "./stored-score-bounds.js";
import { boundBlockPostings } from "./term-score-bounds.js";

useIndexFolder();

const vocabulary = Array.from({ length: 200 }, (_, index) => `word${index}x`);

/** `count` records of 5 to 60 words, common words far more often: lists of one block to many. */
function skewedRecords(count: number): KnowledgeRecord[] {
  const next = random(count);
  return Array.from({ length: count }, (_, index) => {
    const words = Array.from({ length: 5 + Math.floor(55 * next()) }, () => vocabulary[Math.floor(vocabulary.length * next() ** 3)]);
    return { id: `doc${index}#chunk-0`, content: words.join(" "), metadata: { docId: `doc${index}`, chunkIndex: 0 } };
  });
}

/**
 * The first segment's lexicon, and its bounds file as the reader reads it (whole), per term
 * with every term's block starts in memory, and per term alone (`wholeLimit` 0).
 */
function openedBounds() {
  const stored = readManifest(directory);
  if (stored === undefined) throw new Error("no manifest was written");
  const manifest = isSegmented(stored) ? segmentManifest(stored, 0) : stored;
  const snapshot = loadLazyGeneration(directory, manifest, false);
  const { bounds } = snapshot.lexicon as unknown as { bounds: StoredScoreBounds };
  const { file, terms } = bounds as unknown as { file: ConstructorParameters<typeof StoredScoreBounds>[0]; terms: number };
  return {
    lexicon: snapshot.lexicon,
    whole: new StoredScoreBounds(file, terms),
    withStarts: new StoredScoreBounds(file, terms, 4 * (terms + 1)),
    perTerm: new StoredScoreBounds(file, terms, 0),
    size: file.size,
    close: () => snapshot.records.file?.close(),
  };
}

describe("issue 36: a bounds file read whole", () => {
  it("issue 36: gives every term the bounds its reads per term give (with and without the block starts in memory), and refuses another term's postings each way", async () => {
    await (await build(skewedRecords(2500))).close();
    const { lexicon, whole, withStarts, perTerm, size, close } = openedBounds();
    try {
      expect(size).toBeLessThanOrEqual(wholeBoundsBytes);
      let longest = 0;
      for (let term = 0; term < lexicon.termCount; term += 1) {
        const postings = lexicon.postings(term);
        longest = Math.max(longest, postings.slots.length);
        const expected = perTerm.read(term, postings);
        expect(whole.read(term, postings), `term ${term}`).toEqual(expected);
        expect(withStarts.read(term, postings), `term ${term}`).toEqual(expected);
      }
      // Lists of many blocks were compared, not only lists of one.
      expect(longest).toBeGreaterThan(10 * boundBlockPostings);
      // The bounds of the most common term checked against a rare term's postings: refused.
      const common = lexicon.find("word0x");
      const rare = lexicon.find("word199x");
      for (const bounds of [whole, withStarts, perTerm]) {
        expect(() => bounds.read(common, lexicon.postings(rare))).toThrow(CorruptIndexError);
      }
    } finally {
      close();
    }
  });
});
