import { describe, expect, it } from "vitest";
import { ConfigurationError } from "@lookup-knowledge/core";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { postingsCacheLimit } from "./lexical/file-lexicon.js";
import { build, directory, ids, open, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { openCommittedIndex } from "./reader/open-committed-index.js";
import { readLocalPortSettings } from "./port/read-local-port-settings.js";

useIndexFolder();

/** 400 records that all hold "handbook", each with a word of its own. */
const records: KnowledgeRecord[] = Array.from({ length: 400 }, (_, index) => ({
  id: `doc${index}#chunk-0`,
  content: `The handbook page ${index} explains word${index}x${index % 7 === 0 ? " and the handbook index" : ""}.`,
  metadata: { docId: `doc${index}`, chunkIndex: 0 },
}));

/** The postings of `term` read twice from a reader opened with `postingsCacheBytes`: whether the second read is the kept list. */
function keptOnSecondRead(term: string, postingsCacheBytes: number | undefined) {
  const opened = openCommittedIndex(
    readLocalPortSettings(postingsCacheBytes === undefined ? { directory } : { directory, postingsCacheBytes }),
  );
  if (opened === undefined) throw new Error("no committed index");
  try {
    const { lexicon } = opened.snapshot;
    const index = lexicon.find(term);
    const first = lexicon.postings(index);
    const second = lexicon.postings(index);
    expect(Array.from(second.slots)).toEqual(Array.from(first.slots));
    expect(Array.from(second.frequencies)).toEqual(Array.from(first.frequencies));
    return { kept: second === first, postings: first.slots.length };
  } finally {
    opened.snapshot.records.file?.close();
  }
}

describe("issue 14: the reader's postings cache can be sized", () => {
  it("keeps postings by default, none with postingsCacheBytes 0, and only lists up to a quarter of a given size", async () => {
    await (await build(records)).close();
    expect(postingsCacheLimit(1)).toBeGreaterThan(6 * 400);
    expect(keptOnSecondRead("handbook", undefined)).toEqual({ kept: true, postings: 400 });
    expect(keptOnSecondRead("handbook", 0)).toEqual({ kept: false, postings: 400 });
    // 400 postings take 2,400 bytes: kept under a 9,600-byte cache, not under 9,599.
    expect(keptOnSecondRead("handbook", 9600)).toEqual({ kept: true, postings: 400 });
    expect(keptOnSecondRead("handbook", 9599)).toEqual({ kept: false, postings: 400 });
    // A size past what the process can allocate is no error: the ring is never larger than the postings file.
    expect(keptOnSecondRead("handbook", Number.MAX_SAFE_INTEGER)).toEqual({ kept: true, postings: 400 });
  });

  it("finds the same hits with no cache as with the default one", async () => {
    await (await build(records)).close();
    const cached = await open();
    const uncached = await open({ postingsCacheBytes: 0 });
    for (const query of ["handbook index", "word21x handbook", "word399x", "handbook"]) {
      for (let round = 0; round < 2; round += 1) {
        const expected = await cached.search({ query, topK: 5 });
        const got = await uncached.search({ query, topK: 5 });
        expect(ids(got)).toEqual(ids(expected));
        expect(got.map((hit) => hit.score)).toEqual(expected.map((hit) => hit.score));
      }
    }
  });

  it("finds the same hits when a small ring of reused memory overwrites old lists as searches go on", async () => {
    // Twelve words, each in about half of 400 records (bit k of the record's number), so each
    // list takes about 1,200 bytes; a 4,800-byte ring holds four of them at most.
    const words = Array.from({ length: 12 }, (_, bit) => `topic${String.fromCharCode(97 + bit)}`);
    const spread: KnowledgeRecord[] = Array.from({ length: 400 }, (_, index) => ({
      id: `doc${index}#chunk-0`,
      content: `${words.filter((_, bit) => ((index * 2654435761) >>> (bit + 3)) & 1).join(" ")} record${index}`,
      metadata: { docId: `doc${index}`, chunkIndex: 0 },
    }));
    await (await build(spread)).close();
    const ring = await open({ postingsCacheBytes: 4800 });
    const uncached = await open({ postingsCacheBytes: 0 });
    for (let query = 0; query < 200; query += 1) {
      // Three to five words a query: the ring goes round within and between searches.
      const picked = Array.from({ length: 3 + (query % 3) }, (_, position) => words[(query * 5 + position * 7) % 12]);
      const text = `${picked.join(" ")} record${(query * 37) % 400}`;
      const expected = await uncached.search({ query: text, topK: 5 });
      const got = await ring.search({ query: text, topK: 5 });
      expect(ids(got), text).toEqual(ids(expected));
      expect(got.map((hit) => hit.score)).toEqual(expected.map((hit) => hit.score));
    }
  });

  it("refuses a size that is not a whole number of bytes, 0 or more, naming the option", async () => {
    for (const postingsCacheBytes of [-1, 1.5, Number.NaN, "64MB"]) {
      await expect(open({ postingsCacheBytes: postingsCacheBytes as number })).rejects.toSatisfy(
        (error: unknown) =>
          ConfigurationError.isInstance(error) &&
          error.key === "postingsCacheBytes" &&
          /whole number of bytes, 0 or more/.test(error.message),
      );
    }
  });
});
