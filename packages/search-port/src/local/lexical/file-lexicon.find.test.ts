import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { readManifest } from "../format/read-manifest.js";
import { isSegmented, segmentManifest } from "../format/segmented-manifest.js";
import { loadLazyGeneration } from "../reader/load-lazy-generation.js";
import { build, directory, useIndexFolder } from "../test/local-port-test-fixtures.js";
import { random } from "../test/seeded-random-test-fixtures.js";
import { FileLexicon, wholeLexiconBytes } from "./file-lexicon.js";

useIndexFolder();

/** Records of `count` words of their own, some of them outside the basic plane and some accented. */
function distinctWords(count: number): KnowledgeRecord[] {
  const next = random(count);
  const letters = ["a", "e", "o", "é", "ü", "k", "t", "z", "中", "文"];
  return Array.from({ length: count }, (_, index) => {
    let word = "w";
    for (let value = index + 1; value > 0; value = Math.floor(value / letters.length)) word += letters[value % letters.length];
    if (next() < 0.05) word += "\u{1F600}";
    return { id: `r${index}#chunk-0`, content: word, metadata: { docId: `r${index}`, chunkIndex: 0 } };
  });
}

/**
 * The index's one segment opened twice: its terms as arrays, and a fresh lexicon that looks
 * each up from the files (`termTableLimit` 0: by reads, never a term table in memory).
 */
function openedTwice(termTableLimit?: number): { terms: string[]; lexicon: FileLexicon; close: () => void } {
  const stored = readManifest(directory);
  if (stored === undefined) throw new Error("no manifest was written");
  const manifest = isSegmented(stored) ? segmentManifest(stored, 0) : stored;
  const reference = loadLazyGeneration(directory, manifest, false);
  const searched = loadLazyGeneration(directory, manifest, false);
  const { postingsFile, termsFile, shape } = searched.lexicon as unknown as FileLexiconParts;
  return {
    terms: reference.lexicon.arrays().terms,
    lexicon:
      termTableLimit === undefined
        ? (searched.lexicon as FileLexicon)
        : new FileLexicon(postingsFile, termsFile, shape, undefined, undefined, termTableLimit),
    close: () => {
      reference.records.file?.close();
      searched.records.file?.close();
    },
  };
}

/** What a file lexicon is made of, read back from one the reader made. */
interface FileLexiconParts {
  postingsFile: ConstructorParameters<typeof FileLexicon>[0];
  termsFile: ConstructorParameters<typeof FileLexicon>[1];
  shape: ConstructorParameters<typeof FileLexicon>[2];
}

describe("issue 36: a file lexicon's term lookup", () => {
  for (const [name, count, termTableLimit] of [
    ["read whole when small", 40, undefined],
    ["in its term table read whole", 6000, undefined],
    ["by reads, the last terms of the search read in one go", 6000, 0],
  ] as const) {
    it(`issue 36: finds every term at its index and no other word, ${name}`, async () => {
      await (await build(distinctWords(count))).close();
      const { terms, lexicon, close } = openedTwice(termTableLimit);
      try {
        const size = lexicon as unknown as { postingsFile: { size: number }; termsFile: { size: number } };
        expect(size.postingsFile.size + size.termsFile.size <= wholeLexiconBytes).toBe(count < 100);
        expect(terms.length).toBeGreaterThan(count / 2);
        for (const [index, term] of terms.entries()) expect(lexicon.find(term), term).toBe(index);
        // Words between, before and after the terms: none is found.
        for (const term of terms.slice(0, 400)) expect(lexicon.find(`${term}\u0001`)).toBe(-1);
        for (const missing of ["", "a", "\u{10FFFF}", "zzzz", "w\u{1F600}\u{1F600}"]) expect(lexicon.find(missing)).toBe(-1);
        const index = terms.length >> 1;
        expect(lexicon.postings(index).slots.length).toBe(lexicon.documentFrequency(index));
      } finally {
        close();
      }
    });
  }
});
