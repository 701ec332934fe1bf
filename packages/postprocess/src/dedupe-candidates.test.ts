import { describe, expect, it } from "vitest";
import { candidatesOf, hit } from "../test/fixtures.js";
import { dedupeCandidates } from "./dedupe-candidates.js";

describe("dedupeCandidates", () => {
  it("R15: merges hit reasons of duplicates and keeps the higher-ranked content", () => {
    const [first, second] = candidatesOf([
      hit("refunds", 1, { score: 0.9, content: "First copy." }),
      hit("refunds", 1, { score: 0.7, content: "Second copy." }),
    ]);
    if (!first || !second) throw new Error("fixture");
    const deduped = dedupeCandidates([
      first,
      { ...second, hitReasons: [...second.hitReasons, { signal: "keyword", detail: 'keyword "refund" (L0 hint)' }] },
    ]);
    expect(deduped).toHaveLength(1);
    expect(deduped[0]).toMatchObject({ evidenceKey: "refunds#chunk-1", content: "First copy.", portRank: 0, score: 0.9 });
    expect(deduped[0]?.hitReasons).toEqual([
      { signal: "semantic", detail: "semantic match 0.90" },
      { signal: "semantic", detail: "semantic match 0.70" },
      { signal: "keyword", detail: 'keyword "refund" (L0 hint)' },
    ]);
  });

  it("R15: the winning copy keeps its own score, never another copy's", () => {
    const candidates = candidatesOf([
      hit("refunds", 1, { score: 0.4, content: "Weak copy." }),
      hit("refunds", 1, { score: 0.95, content: "Strong copy." }),
    ]);
    const [merged] = dedupeCandidates(candidates);
    expect(merged).toMatchObject({ content: "Strong copy.", score: 0.95, portRank: 1 });
  });

  it("R15: a reason with the same signal and detail is kept once", () => {
    const candidates = candidatesOf([hit("a", 0, { score: 0.5 }), hit("a", 0, { score: 0.5 })]);
    expect(dedupeCandidates(candidates)[0]?.hitReasons).toEqual([{ signal: "semantic", detail: "semantic match 0.50" }]);
  });

  it("R15: the copy the port ranked higher wins even when it comes later in the input", () => {
    const [first, second] = candidatesOf([hit("a", 0, { content: "ranked first" }), hit("a", 0, { content: "ranked second" })]);
    if (!first || !second) throw new Error("fixture");
    expect(dedupeCandidates([second, first])[0]?.content).toBe("ranked first");
  });

  it("R15: different chunks of one document stay separate", () => {
    const candidates = candidatesOf([hit("guide", 0), hit("guide", 1), hit("guide", 2)]);
    expect(dedupeCandidates(candidates).map((candidate) => candidate.evidenceKey)).toEqual([
      "guide#chunk-0",
      "guide#chunk-1",
      "guide#chunk-2",
    ]);
  });

  it("R15: equal content or source with different evidence keys is not a duplicate", () => {
    const candidates = candidatesOf([
      hit("a", 0, { content: "Same text.", source: "same.md" }),
      hit("b", 0, { content: "Same text.", source: "same.md" }),
    ]);
    expect(dedupeCandidates(candidates)).toHaveLength(2);
  });

  it("keeps a known score over a missing one and does not mutate its input", () => {
    const candidates = candidatesOf([hit("a", 0), hit("a", 0, { score: 0.4 })]);
    const before = structuredClone(candidates);
    const [merged] = dedupeCandidates(candidates);
    expect(merged?.score).toBe(0.4);
    expect(candidates).toEqual(before);
  });
});
