import { describe, expect, it } from "vitest";
import { normalizeHits } from "./normalize-hits.js";

const judgement = { score: 0.8, model: "answerability-logistic@4", signals: { lexical: 0.5, coverage: 0.75 } };
const hit = (index: number, extra: Record<string, unknown> = {}) => ({
  id: `doc-${index}`,
  content: `content ${index}`,
  metadata: { docId: `doc-${index}`, chunkIndex: 0 },
  score: 0.8,
  ...extra,
});

describe("normalizeHits: a port's answerability judgement", () => {
  it("R27: keeps the first hit's judgement when it is the score the gate reads", () => {
    const { candidates } = normalizeHits([hit(0, { answerability: judgement }), hit(1, { score: 0.5 })]);
    expect(candidates[0]?.answerability).toEqual(judgement);
    expect(candidates[1]?.answerability).toBeUndefined();
  });

  it("R9: keeps the first hit's judgement apart from its ranking score (the judgement never rescales the hit)", () => {
    const { candidates } = normalizeHits([hit(0, { score: 0.9, answerability: { ...judgement, score: 0.1 } })]);
    expect(candidates[0]?.score).toBe(0.9);
    expect(candidates[0]?.answerability?.score).toBe(0.1);
  });

  it.each([
    ["a judgement on a later hit", [hit(0), hit(1, { answerability: judgement })]],
    ["a model name holding free text", [hit(0, { answerability: { ...judgement, model: "how do I reset my password" } })]],
    ["a signal name holding free text", [hit(0, { answerability: { ...judgement, signals: { "reset my password": 1 } } })]],
    [
      "too many signals",
      [
        hit(0, {
          answerability: { ...judgement, signals: Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`s${index}`, 1])) },
        }),
      ],
    ],
    ["a signal that is not a finite number", [hit(0, { answerability: { ...judgement, signals: { lexical: "high" } } })]],
  ])("R28: drops %s and keeps the hit", (name, hits) => {
    const { candidates, rejected, judgementLost } = normalizeHits(hits);
    expect(rejected).toEqual([]);
    // A judgement of the first hit that is dropped is lost; one on a later hit was never the port's.
    expect(judgementLost).toBe(name !== "a judgement on a later hit");
    expect(candidates.length).toBe(hits.length);
    for (const candidate of candidates) expect(candidate.answerability).toBeUndefined();
  });

  it("R9: a first hit refused with its judgement loses the judgement; a refused hit without one loses none", () => {
    expect(normalizeHits([{ ...hit(0, { answerability: judgement }), content: 42 }, hit(1)]).judgementLost).toBe(true);
    expect(normalizeHits([{ ...hit(0), content: 42 }, hit(1)]).judgementLost).toBe(false);
    expect(normalizeHits([hit(0, { answerability: judgement })]).judgementLost).toBe(false);
  });
});
