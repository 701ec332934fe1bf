import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { build, open, useIndexFolder } from "../test/local-port-test-fixtures.js";
import { random } from "../test/seeded-random-test-fixtures.js";

useIndexFolder();

/** Words drawn with Zipf-like frequencies: a few in most records, most in a few. */
function zipfWords(next: () => number, vocabulary: readonly string[], count: number): string[] {
  return Array.from({ length: count }, () => vocabulary[Math.floor(vocabulary.length * next() ** 3)] as string);
}

describe("issue 14: the lexical search that skips common terms' postings (MaxScore)", () => {
  it("returns exactly the hits, scores and order of the full pass, ties and repeated words included", async () => {
    const next = random(14);
    const letters = "bcdfghjklmnpqrstvwz";
    const vocabulary = Array.from({ length: 1500 }, (_, index) => {
      let word = "";
      for (let value = index + 400; value > 0; value = Math.floor(value / letters.length)) word += `${letters[value % letters.length]}a`;
      return word;
    });
    const records: KnowledgeRecord[] = [];
    for (let index = 0; index < 3000; index += 1) {
      const content = zipfWords(next, vocabulary, 5 + Math.floor(next() * 60)).join(" ");
      records.push({ id: `r${index}#chunk-0`, content, metadata: { docId: `r${index}`, chunkIndex: 0, group: "all" } });
      // Exact copies under other ids: equal scores, ordered by id.
      if (index % 50 === 0)
        records.push({ id: `copy${index}#chunk-0`, content, metadata: { docId: `copy${index}`, chunkIndex: 0, group: "all" } });
    }
    await (await build(records)).close();
    const reader = await open({ minScore: 0 });
    let compared = 0;
    for (let query = 0; query < 300; query += 1) {
      const words = zipfWords(next, vocabulary, 1 + Math.floor(next() * 8));
      if (query % 7 === 0) words.push(words[0] as string);
      const text = words.join(" ");
      for (const topK of [1, 3, 10, 40]) {
        const skipping = await reader.search({ query: text, topK });
        // A filter every record passes takes the path that scores every posting.
        const full = await reader.search({ query: text, topK, filter: { group: "all" } });
        expect(skipping, `${text} (topK ${topK})`).toEqual(full);
        compared += skipping.length;
      }
    }
    expect(compared).toBeGreaterThan(5000);
  });
});
