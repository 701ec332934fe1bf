import { describe, expect, it } from "vitest";
import { freshFusedPass, fuseDenseScores } from "./fuse-dense-scores.js";
import { denseScore } from "./dense-score.js";
import { random } from "../test/seeded-random-test-fixtures.js";

describe("issue 14: the fused pass over the kernel's dot products", () => {
  it("offers every slot of the exact top k (ties by id, in another order than the slots), range by range in any order, with the cosines and best scores of a full pass", () => {
    const next = random(40);
    for (const [count, topK, weight, floor] of [
      [1, 1, 0.3, 0.2],
      [500, 10, 0.3, 0.2],
      [2000, 7, 1, 0],
      [2000, 40, 0.5, 0.45],
    ] as const) {
      const lexical = new Float64Array(count);
      const dots = new Int32Array(count);
      const inverseNorms = new Float32Array(count);
      for (let slot = 0; slot < count; slot += 1) {
        lexical[slot] = next() < 0.1 ? next() : 0;
        // Repeated values make equal fused scores, which must still be offered.
        dots[slot] = Math.round((next() * 2 - 1) * 40) * 100_000;
        inverseNorms[slot] = slot % 13 === 0 ? 0 : 1 / 2_000_000;
      }
      const queryInverseNorm = 1 / 2_500_000;
      // The caller's heap: the best topK (score desc, then id, here the slots in reverse); the bar is its worst score once full.
      const kept: Array<{ slot: number; score: number }> = [];
      const best = freshFusedPass();
      const offer = (slot: number, score: number) => {
        kept.push({ slot, score });
        kept.sort((left, right) => right.score - left.score || right.slot - left.slot);
        kept.length = Math.min(kept.length, topK);
        return kept.length < topK ? 0 : (kept[kept.length - 1] as { score: number }).score;
      };
      // One options object for the whole pass, as a search makes it.
      const fusion = { weight, denseFloor: floor, best, offer };
      // In ranges, out of order (as a chunked scan hands them over): the same slots are kept.
      const third = Math.floor(count / 3);
      for (const range of [
        { start: third, end: count },
        { start: 0, end: third },
      ]) {
        fuseDenseScores(lexical, dots, inverseNorms, queryInverseNorm, range, fusion);
      }
      const all = Array.from({ length: count }, (_, slot) => {
        const cosine = new Float32Array([(dots[slot] as number) * (inverseNorms[slot] as number) * queryInverseNorm])[0] as number;
        const dense = denseScore(cosine, floor);
        return { slot, score: (1 - weight) * (lexical[slot] as number) + weight * dense, dense };
      });
      const expected = all
        .filter(({ score }) => score > 0)
        .sort((left, right) => right.score - left.score || right.slot - left.slot)
        .slice(0, topK)
        .map(({ slot, score }) => ({ slot, score }));
      expect(kept, `${count} slots, top ${topK}`).toEqual(expected);
      expect(best.dense).toBe(Math.max(0, ...all.map(({ dense }) => dense)));
      expect(best.lexical).toBe(Math.max(0, ...lexical));
    }
  });
});
