import type { RerankBoost } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { demoteRepeatedDocuments, repeatedDocumentSignal } from "./demote-repeated-documents.js";

interface Item {
  evidenceKey: string;
  docId?: string;
  rankScore: number;
  portRank: number;
  boosts: RerankBoost[];
  hitReasons: string[];
}

const item = (evidenceKey: string, rankScore: number, portRank: number, docId?: string): Item => ({
  evidenceKey,
  ...(docId === undefined ? {} : { docId }),
  rankScore,
  portRank,
  boosts: [],
  hitReasons: ["semantic match"],
});
const keys = (items: Item[]) => items.map((entry) => entry.evidenceKey);

describe("demoteRepeatedDocuments", () => {
  it("R18: a document's second block that is about as good as another document's best falls behind it", () => {
    const ranked = [item("a#0", 0.9, 0, "a"), item("a#1", 0.85, 1, "a"), item("b#0", 0.8, 2, "b"), item("c#0", 0.7, 3, "c")];
    const out = demoteRepeatedDocuments(ranked, 0.3);
    // a#1 keeps 0.85 x 0.7 = 0.595: behind b (0.8) and c (0.7).
    expect(keys(out)).toEqual(["a#0", "b#0", "c#0", "a#1"]);
    expect(out[3]?.rankScore).toBe(0.595);
  });

  it("R18: a further block clearly better than the other documents keeps its place", () => {
    const ranked = [item("a#0", 0.9, 0, "a"), item("a#1", 0.88, 1, "a"), item("b#0", 0.3, 2, "b")];
    expect(keys(demoteRepeatedDocuments(ranked, 0.3))).toEqual(["a#0", "a#1", "b#0"]);
  });

  it("R18: the third block of a document gives up the share twice, and blocks without a docId are each their own document", () => {
    const ranked = [
      item("a#0", 1, 0, "a"),
      item("a#1", 1, 1, "a"),
      item("a#2", 1, 2, "a"),
      item("vector:x", 0.6, 3),
      item("vector:y", 0.55, 4),
    ];
    const out = demoteRepeatedDocuments(ranked, 0.3);
    expect(out.map((entry) => [entry.evidenceKey, entry.rankScore])).toEqual([
      ["a#0", 1],
      ["a#1", 0.7],
      ["vector:x", 0.6],
      ["vector:y", 0.55],
      ["a#2", 0.49],
    ]);
  });

  it("R19: records each demotion as a negative repeated_document boost, and leaves the hit reasons the agent reads alone", () => {
    const ranked = [item("a#0", 0.9, 0, "a"), item("a#1", 0.8, 1, "a")];
    const out = demoteRepeatedDocuments(ranked, 0.25);
    expect(out[0]?.boosts).toEqual([]);
    expect(out[1]?.boosts).toEqual([
      { signal: repeatedDocumentSignal, reason: "block 2 of its document: keeps 75% of its score", amount: -0.2 },
    ]);
    expect(out[1]?.hitReasons).toEqual(["semantic match"]);
    // The input is not changed.
    expect(ranked[1]?.rankScore).toBe(0.8);
    expect(ranked[1]?.boosts).toEqual([]);
  });

  it("refuses a share outside 0..1 naming it, ranks its input first, and records no demotion of a score of 0", () => {
    for (const share of [Number.NaN, -0.1, 2]) {
      expect(() => demoteRepeatedDocuments([], share)).toThrow(/repeatedDocument is a share of a block's score, from 0 to 1, got/);
    }
    // Out of rank order: a#0 is still the block that keeps its whole score.
    const shuffled = [item("a#1", 0.8, 1, "a"), item("b#0", 0.7, 2, "b"), item("a#0", 0.9, 0, "a")];
    expect(demoteRepeatedDocuments(shuffled, 0.25).map((entry) => [entry.evidenceKey, entry.rankScore])).toEqual([
      ["a#0", 0.9],
      ["b#0", 0.7],
      ["a#1", 0.6],
    ]);
    const zero = demoteRepeatedDocuments([item("a#0", 0.9, 0, "a"), item("a#1", 0, 1, "a")], 0.25);
    expect(zero[1]?.boosts).toEqual([]);
  });

  it("with a share of 0, changes nothing", () => {
    const ranked = [item("a#0", 0.9, 0, "a"), item("a#1", 0.85, 1, "a"), item("b#0", 0.8, 2, "b")];
    expect(demoteRepeatedDocuments(ranked, 0)).toEqual(ranked);
  });
});
