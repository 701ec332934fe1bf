import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { readManifest } from "../format/read-manifest.js";
import { isSegmented } from "../format/segmented-manifest.js";
import { build, directory, open, useIndexFolder } from "../test/local-port-test-fixtures.js";
import { random } from "../test/seeded-random-test-fixtures.js";

useIndexFolder();

const vocabulary = Array.from({ length: 300 }, (_, index) => `w${index}q`);

/** Words drawn so that a few are in most records and most are rare (MaxScore skips the common ones). */
function zipfWords(next: () => number, count: number): string[] {
  return Array.from({ length: count }, () => vocabulary[Math.floor(vocabulary.length * next() ** 2.5)] as string);
}

/**
 * Records in groups of near copies, as the bench's replicas are: each group's first text, then
 * copies with a word or two left out (shorter, so some score higher), so that many records
 * come close to the k-th score and the block bounds of the common terms are near their best.
 */
function recordsOf(next: () => number, prefix: string, count: number): KnowledgeRecord[] {
  const made: KnowledgeRecord[] = [];
  let base: string[] = [];
  for (let index = 0; index < count; index += 1) {
    if (index % 6 === 0) base = zipfWords(next, 4 + Math.floor(60 * next() ** 2));
    const words = index % 6 === 0 ? base : base.filter(() => next() > 0.08);
    const id = `${prefix}${index}`;
    made.push({ id: `${id}#chunk-0`, content: words.join(" "), metadata: { docId: id, chunkIndex: 0, every: "yes" } });
  }
  return made;
}

describe("issue 36: the lexical top-k over many segments with deletions is the full pass's", () => {
  it("issue 36: the pruned top-k (MaxScore by windows, probes of the skipped terms) equals the top-k of scoring every posting, over 7 segments with replaced and deleted records", async () => {
    const next = random(3660);
    // Three windows of 4,096 slots and more in the first segment, then six smaller commits
    // that replace or delete records of the segments before them.
    const writer = await build(recordsOf(next, "a", 13_000));
    for (let commit = 1; commit <= 6; commit += 1) {
      const fresh = recordsOf(next, `c${commit}-`, 400 + Math.floor(1600 * next()));
      const replaced = recordsOf(next, "a", 300).map((item, index) => {
        const id = `a${(commit * 977 + index * 37) % 13_000}`;
        return { ...item, id: `${id}#chunk-0`, metadata: { ...item.metadata, docId: id } };
      });
      await writer.upsert([...fresh, ...replaced]);
      await writer.deleteDocuments(Array.from({ length: 120 }, (_, index) => `a${(commit * 131 + index * 53) % 13_000}`));
      await writer.commit();
    }
    await writer.close();
    const manifest = readManifest(directory);
    const segments = manifest !== undefined && isSegmented(manifest) ? manifest.segments : [];
    expect(segments.length).toBeGreaterThanOrEqual(7);

    const port = await open({ minScore: 0 });
    let compared = 0;
    for (let query = 0; query < 150; query += 1) {
      // Common and rare words together, so that some terms are skipped and others essential.
      const text = [...zipfWords(next, 1 + Math.floor(4 * next())), vocabulary[Math.floor(300 * next())]].join(" ");
      // A filter every record passes sends the search down the path that scores every posting.
      const full = await port.search({ query: text, topK: 50, filter: { every: "yes" } });
      for (const topK of [1, 10, 50]) {
        const pruned = await port.search({ query: text, topK });
        expect(
          pruned.map((hit) => [hit.id, hit.score]),
          `${text} (topK ${topK})`,
        ).toEqual(full.slice(0, topK).map((hit) => [hit.id, hit.score]));
        compared += pruned.length;
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  }, 120_000);
});
