import { lexicalTerms } from "@lookup-knowledge/text";
import { describe, expect, it, vi } from "vitest";
import { DenseMatrix } from "../dense/dense-matrix.js";
import { termShare } from "../lexical/term-share.js";
import { searchSnapshot } from "../reader/search-snapshot.js";
import type { SnapshotQuery } from "../reader/search-snapshot.js";
import { scopedSnapshot } from "../snapshot/scoped-snapshot.js";
import { emptySnapshot, recordContent, recordMetadata, sharedMetadata } from "../snapshot/index-snapshot.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { random } from "../test/seeded-random-test-fixtures.js";
import { composeSnapshot } from "./compose-snapshot.js";
import { rememberedTerms } from "./segmented-lexicon.js";
import type { SegmentedLexicon } from "./segmented-lexicon.js";
import { dimension, memoryPart, randomSegments, randomVector, zipfWord } from "../test/composed-snapshot-test-fixtures.js";

const directory = "/nowhere";
const denseFloor = 0.2;

/** The queries of one round: every path of `searchSnapshot` on one query text and vector. */
function queriesOf(snapshot: IndexSnapshot, terms: string[], vector: number[], topK: number): Record<string, SnapshotQuery> {
  const category = (slot: number) => sharedMetadata(snapshot.records, slot, directory).category;
  const rank = (slot: number) => sharedMetadata(snapshot.records, slot, directory).rank as number;
  return {
    lexical: { terms, denseWeight: 0, topK },
    hybrid: { terms, vector, denseWeight: 0.3, topK },
    dense: { terms, vector, denseWeight: 1, topK },
    filtered: { terms, vector, denseWeight: 0.3, topK, accepts: (slot) => category(slot) === "alpha" },
    lexicalFiltered: { terms, denseWeight: 0, topK, accepts: (slot) => rank(slot) < 5 },
    scoped: {
      terms,
      vector,
      denseWeight: 0.3,
      topK,
      accepts: (slot) => category(slot) === "beta" && rank(slot) % 2 === 0,
      inScope: (slot) => category(slot) === "beta",
    },
    approximate: { terms, vector, denseWeight: 0.3, topK, approximateCandidates: 8 },
  };
}

function expectSameIndex(composed: IndexSnapshot, single: IndexSnapshot): void {
  expect(composed.count).toBe(single.count);
  expect(composed.keys.arrays()).toEqual(single.keys.arrays());
  expect(composed.lexicon.totalLength).toBe(single.lexicon.totalLength);
  expect(composed.lexicon.lengths()).toEqual(single.lexicon.lengths());
  expect(composed.lexicon.arrays()).toEqual(single.lexicon.arrays());
  expect(composed.lexicon.termCount).toBe(single.lexicon.termCount);
  for (let slot = 0; slot < single.count; slot += 1) {
    expect(composed.keys.id(slot)).toBe(single.keys.id(slot));
    expect(composed.keys.docId(slot)).toBe(single.keys.docId(slot));
    expect(recordContent(composed.records, slot)).toBe(recordContent(single.records, slot));
    expect(sharedMetadata(composed.records, slot, directory)).toEqual(sharedMetadata(single.records, slot, directory));
    expect(recordMetadata(composed.records, slot, directory)).toEqual(recordMetadata(single.records, slot, directory));
  }
  const vectors = composed.vectors;
  expect(vectors === undefined).toBe(single.vectors === undefined);
  if (vectors !== undefined && single.vectors !== undefined) {
    expect(vectors.rowBytes()).toEqual(single.vectors.rowBytes());
    expect(vectors.inverseNorms).toEqual(single.vectors.inverseNorms);
  }
}

describe("composeSnapshot", () => {
  it("issue 36 item 1: a composed snapshot searches as a single index of its live records", () => {
    let searched = 0;
    const seen = { composed: 0, wholePartDeleted: 0, emptyPart: 0, someDeleted: 0, withoutVectors: 0 };
    for (let seed = 1; seed <= 40; seed += 1) {
      const { parts, live, words } = randomSegments(seed);
      const withVectors = live.some((record) => record.vector !== undefined);
      const single = memoryPart(live, withVectors ? dimension : 0);
      // Every third round with a postings cache too small to keep most lists.
      const composed = composeSnapshot(parts, seed % 3 === 0 ? { postingsCacheBytes: 64 } : {});
      if (parts.length > 1) seen.composed += 1;
      for (const { snapshot, deleted } of parts) {
        if (snapshot.count === 0) seen.emptyPart += 1;
        else if (deleted?.every((flag) => flag === 1)) seen.wholePartDeleted += 1;
        else if (deleted?.includes(1)) seen.someDeleted += 1;
        if (snapshot.count > 0 && snapshot.vectors === undefined) seen.withoutVectors += 1;
      }
      const next = random(1000 + seed);
      for (let round = 0; round < 25; round += 1) {
        const text = Array.from({ length: 1 + Math.floor(5 * next()) }, () => (next() < 0.1 ? "zzyzxunseen" : zipfWord(words, next))).join(
          " ",
        );
        const terms = lexicalTerms(text);
        const vector = randomVector(next);
        const topK = 1 + Math.floor(12 * next());
        const fromComposed = queriesOf(composed, terms, vector, topK);
        const fromSingle = queriesOf(single, terms, vector, topK);
        for (const [name, query] of Object.entries(fromComposed)) {
          const expected = searchSnapshot(single, fromSingle[name] as SnapshotQuery, denseFloor);
          const actual = searchSnapshot(composed, query, denseFloor);
          expect(actual, `seed ${seed}, round ${round}, ${name}: ${text}`).toEqual(expected);
          expect(actual.slots.map(({ slot }) => composed.keys.id(slot))).toEqual(expected.slots.map(({ slot }) => single.keys.id(slot)));
          searched += actual.slots.length;
        }
        expect(termShare(composed, text)).toBe(termShare(single, text));
        for (const term of terms) {
          const index = composed.lexicon.find(term);
          const reference = single.lexicon.find(term);
          expect(index < 0).toBe(reference < 0);
          if (index >= 0) {
            expect(composed.lexicon.documentFrequency(index)).toBe(single.lexicon.documentFrequency(reference));
            expect(composed.lexicon.postings(index)).toEqual(single.lexicon.postings(reference));
          }
        }
      }
      expectSameIndex(composed, single);
      // A scope (scoped-snapshot.ts) rebuilds a snapshot of the records it admits from the composed one.
      for (const scope of [{ category: "alpha" }, { rank: { $lt: 5 } }]) {
        const scopedComposed = scopedSnapshot(composed, scope, directory);
        const scopedSingle = scopedSnapshot(single, scope, directory);
        expectSameIndex(scopedComposed, scopedSingle);
        const terms = lexicalTerms(words.slice(0, 3).join(" "));
        const vector = randomVector(next);
        const fromComposed = queriesOf(scopedComposed, terms, vector, 5);
        const fromSingle = queriesOf(scopedSingle, terms, vector, 5);
        for (const [name, query] of Object.entries(fromComposed)) {
          expect(searchSnapshot(scopedComposed, query, denseFloor), `seed ${seed}, scope, ${name}`).toEqual(
            searchSnapshot(scopedSingle, fromSingle[name] as SnapshotQuery, denseFloor),
          );
        }
      }
      if (composed !== parts[0]?.snapshot && seed % 3 === 0)
        expect((composed.lexicon as SegmentedLexicon).cachedBytes).toBeLessThanOrEqual(64);
    }
    // The rounds found hits: the comparison is not between empty lists.
    expect(searched).toBeGreaterThan(5000);
    // The seeds cover every shape of segments the test means to.
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(2);
  });

  it("issue 36 item 1: one part without deletions is the part itself; no parts give an empty snapshot", () => {
    const { parts } = randomSegments(7);
    const snapshot = (parts.find((part) => part.snapshot.count > 0) ?? parts[0])?.snapshot as IndexSnapshot;
    expect(composeSnapshot([{ snapshot }])).toBe(snapshot);
    expect(composeSnapshot([{ snapshot, deleted: new Uint8Array(snapshot.count) }])).toBe(snapshot);
    const empty = composeSnapshot([]);
    expect(empty.count).toBe(0);
    expect(searchSnapshot(empty, { terms: ["kalo"], denseWeight: 0, topK: 5 }, denseFloor)).toEqual({ slots: [] });
    expect(composeSnapshot([{ snapshot: emptySnapshot() }, { snapshot: emptySnapshot() }]).count).toBe(0);
  });

  it("issue 36 item 1: a term whose every record is deleted is not found, as in an index of the live records", () => {
    const kept = { id: "a", docId: "a", content: "kalo mine", metadata: { category: "alpha", rank: 1 }, vector: undefined };
    const gone = { id: "b", docId: "b", content: "kalo brafir", metadata: { category: "alpha", rank: 1 }, vector: undefined };
    const composed = composeSnapshot([{ snapshot: memoryPart([kept], 0) }, { snapshot: memoryPart([gone], 0), deleted: Uint8Array.of(1) }]);
    expect(composed.count).toBe(1);
    expect(composed.lexicon.find(lexicalTerms("brafir")[0] as string)).toBe(-1);
    expect(composed.lexicon.documentFrequency(composed.lexicon.find(lexicalTerms("kalo")[0] as string))).toBe(1);
    expect(composed.lexicon.arrays().terms).toEqual(memoryPart([kept], 0).lexicon.arrays().terms);
  });

  it("issue 36 item 1: parts whose vectors differ in dimension are refused, naming both", () => {
    const record = (id: string, size: number) => ({
      id,
      docId: id,
      content: "kalo",
      metadata: { category: "alpha", rank: 1 },
      vector: undefined,
      size,
    });
    const withMatrix = (id: string, size: number): IndexSnapshot => {
      const snapshot = memoryPart([record(id, size)], 0);
      return { ...snapshot, vectors: new DenseMatrix(1, size) };
    };
    const composed = composeSnapshot([{ snapshot: withMatrix("a", 8) }, { snapshot: withMatrix("b", 16) }]);
    expect(() => composed.vectors).toThrow(/part 1 holds vectors of 16 dimensions, an earlier part of 8/);
  });

  it("issue 36 item 1: a lexicon past its remembered terms forgets them at the next search, and never gives an index to another term", () => {
    let seed = 1;
    while (randomSegments(seed).live.length < 20) seed += 1;
    const { parts, live } = randomSegments(seed);
    const composed = composeSnapshot([...parts, { snapshot: memoryPart([], 0) }]);
    const single = memoryPart(live, live.some((record) => record.vector !== undefined) ? dimension : 0);
    const term = single.lexicon.arrays().terms[0] as string;
    const first = composed.lexicon.find(term);
    expect(first).toBeGreaterThanOrEqual(0);
    for (let index = 0; index < rememberedTerms; index += 1) composed.lexicon.find(`unknown${index}`);
    composed.lexicon.beginSearch?.();
    const again = composed.lexicon.find(term);
    expect(again).toBeGreaterThan(first);
    expect(() => composed.lexicon.postings(first)).toThrow(/no term has index/);
    expect(composed.lexicon.postings(again)).toEqual(single.lexicon.postings(single.lexicon.find(term)));
  });

  it("issue 36: a search reads each part's postings in place and gathers none; a list gathered on request is kept within the cache", () => {
    const record = (id: string, content: string) => ({
      id,
      docId: id,
      content,
      metadata: { category: "alpha", rank: 1 },
      vector: undefined,
    });
    const parts = [
      { snapshot: memoryPart([record("a", "kalo mine"), record("b", "kalo")], 0), deleted: Uint8Array.of(0, 1) },
      { snapshot: memoryPart([record("c", "kalo brafir")], 0) },
    ];
    const composed = composeSnapshot(parts, { postingsCacheBytes: 0 });
    const gathered = vi.spyOn(composed.lexicon, "postings");
    const read = parts.map((part) => vi.spyOn(part.snapshot.lexicon, "postings"));
    const terms = lexicalTerms("kalo brafir");
    for (const query of [
      { terms, denseWeight: 0, topK: 5 },
      { terms, denseWeight: 0, topK: 5, accepts: () => true },
    ]) {
      const { slots } = searchSnapshot(composed, query, denseFloor);
      expect(slots.map(({ slot }) => composed.keys.id(slot))).toEqual(["c", "a"]);
    }
    expect(gathered).not.toHaveBeenCalled();
    expect(read.map((spy) => spy.mock.calls.length > 0)).toEqual([true, true]);
    // The deleted record's posting is not counted.
    const index = composed.lexicon.find(terms[0] as string);
    expect(composed.lexicon.documentFrequency(index)).toBe(2);
    // Gathered on request, with composed slots; not kept by a cache of 0 bytes, so the next search gathers it again.
    expect(composed.lexicon.postings(index)).toEqual({ slots: Uint32Array.of(0, 1), frequencies: Uint16Array.of(1, 1) });
    expect((composed.lexicon as SegmentedLexicon).cachedBytes).toBe(0);
    const calls = read.map((spy) => spy.mock.calls.length);
    composed.lexicon.beginSearch?.();
    composed.lexicon.postings(index);
    expect(read.map((spy) => spy.mock.calls.length)).toEqual(calls.map((count) => count + 1));
  });
});
