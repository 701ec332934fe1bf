import { afterEach, describe, expect, it } from "vitest";
import { DenseMatrix, parallelScanRows, scanChunkRows } from "./dense-matrix.js";
import { acquireDenseScanHelper, allowDenseScanHelper, denseScanHelper, helperChunkCount } from "./dense-scan-helper.js";
import { freshFusedPass } from "./fuse-dense-scores.js";
import { random } from "../test/seeded-random-test-fixtures.js";

/** Blocks this thread for `ms` (the worker keeps running meanwhile). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Two matrices with the same seeded rows: `options` for the first, one thread and no shared memory for the second. */
function twinMatrices(seed: number, count: number, dimension: number, options: { simd?: boolean; parallel?: boolean } = {}) {
  const next = random(seed);
  const first = new DenseMatrix(count, dimension, options);
  const second = new DenseMatrix(count, dimension, { parallel: false });
  const rows = first.rowBytes();
  for (let slot = 0; slot < count; slot += 1) {
    const base = slot * first.stride;
    for (let index = 0; index < dimension; index += 1) rows[base + index] = Math.floor(next() * 256);
    // Some zero rows (inverse norm 0) and repeated norms, for ties.
    first.inverseNorms[slot] = slot % 97 === 0 ? 0 : 1 / (300 + Math.floor(next() * 40));
  }
  second.rowBytes().set(rows);
  second.inverseNorms.set(first.inverseNorms);
  const query = () => Array.from({ length: dimension }, () => next() * 2 - 1);
  return { first, second, query, next };
}

const releases: Array<() => void> = [];
afterEach(() => {
  allowDenseScanHelper(true);
  for (const release of releases.splice(0)) release();
});

function holdHelper(): void {
  releases.push(acquireDenseScanHelper());
}

describe("issue 14: the dense scan split with a helper thread", () => {
  it("gives exactly the dot products of one thread, every row once, with chunks from the helper thread", () => {
    holdHelper();
    const count = parallelScanRows + 3 * scanChunkRows + 123;
    const { first, second, query } = twinMatrices(14, count, 40);
    expect(first.parallel).toBe(true);
    expect(second.parallel).toBe(false);
    const before = helperChunkCount();
    // Until the worker (started by the first scan) has taken part a few times; each scan is compared whole.
    for (let scan = 0; scan < 400 && helperChunkCount() - before < 20; scan += 1) {
      const vector = query();
      const expected = Array.from(second.dots(vector).dots);
      const seen = new Uint8Array(count);
      const values = new Int32Array(count);
      const { queryInverseNorm } = first.scanInChunks(
        vector,
        () => pause(scan % 2 === 0 ? 5 : 0),
        (start, end, dots) => {
          for (let slot = start; slot < end; slot += 1) {
            seen[slot] = (seen[slot] as number) + 1;
            values[slot] = dots[slot] as number;
          }
        },
      );
      expect(queryInverseNorm).toBe(second.dots(vector).queryInverseNorm);
      expect(seen.every((times) => times === 1)).toBe(true);
      expect(Array.from(values)).toEqual(expected);
      // Without `each`, the returned array holds every row, the helper's included.
      expect(Array.from(first.dots(vector).dots)).toEqual(expected);
    }
    expect(helperChunkCount() - before).toBeGreaterThanOrEqual(20);
  });

  it("gives each matrix its own dot products when scans of two matrices of different sizes alternate on the one worker", () => {
    holdHelper();
    const small = twinMatrices(5, parallelScanRows + 7, 32);
    const large = twinMatrices(6, parallelScanRows + 5 * scanChunkRows + 11, 32);
    const smallNorms = Array.from(small.first.inverseNorms);
    const largeNorms = Array.from(large.first.inverseNorms);
    const before = helperChunkCount();
    for (let scan = 0; scan < 90; scan += 1) {
      const twin = scan % 3 === 0 ? small : large;
      const vector = twin.query();
      // Now and then the search thread stops early, as a search whose filter throws does.
      if (scan % 7 === 0) {
        expect(() =>
          twin.first.scanInChunks(vector, undefined, () => {
            throw new Error("stop");
          }),
        ).toThrow("stop");
        continue;
      }
      expect(Array.from(twin.first.dots(vector).dots), `scan ${scan}`).toEqual(Array.from(twin.second.dots(vector).dots));
    }
    // No late write of the worker landed in the rows' inverse norms.
    expect(Array.from(small.first.inverseNorms)).toEqual(smallNorms);
    expect(Array.from(large.first.inverseNorms)).toEqual(largeNorms);
    expect(helperChunkCount() - before).toBeGreaterThan(0);
  });

  it("ranks exactly as one thread: the fused pass in WebAssembly gives the JavaScript pass's top k, scores and bests bit for bit, and leaves the scratch zero", () => {
    holdHelper();
    const count = parallelScanRows + 5000;
    const { first, second, query, next } = twinMatrices(41, count, 24);
    // The plain JavaScript pass: no SIMD, no WebAssembly fuse kernel.
    const plain = new DenseMatrix(count, 24, { simd: false });
    plain.rowBytes().set(second.rowBytes());
    plain.inverseNorms.set(second.inverseNorms);
    for (const [weight, floor, topK] of [
      [0.3, 0.2, 10],
      [1, 0, 5],
      [0.5, 0.45, 40],
      [0, 0.2, 10],
      [0.7, -0.1, 1],
    ] as const) {
      const vector = query();
      const lexical = Array.from({ length: count }, () => (next() < 0.2 ? Math.round(next() * 8) / 4 : 0));
      const run = (matrix: DenseMatrix) => {
        matrix.lexicalScratch().set(lexical);
        const kept: Array<{ slot: number; score: number; lexical: number; dense: number }> = [];
        const best = freshFusedPass();
        const offer = (slot: number, score: number, lexicalScore: number, dense: number) => {
          kept.push({ slot, score, lexical: lexicalScore, dense });
          kept.sort((left, right) => right.score - left.score || left.slot - right.slot);
          kept.length = Math.min(kept.length, topK);
          return kept.length < topK ? 0 : (kept[kept.length - 1] as { score: number }).score;
        };
        const fusion = { weight, denseFloor: floor, best, offer };
        matrix.scanInChunks(vector, undefined, (start, end, dots, queryInverseNorm) =>
          matrix.fuseRows(dots, start, end, queryInverseNorm, fusion),
        );
        expect(matrix.lexicalScratch().every((value) => value === 0)).toBe(true);
        return { kept, best: { lexical: best.lexical, dense: best.dense } };
      };
      const expected = run(plain);
      expect(expected.kept.length).toBe(topK);
      expect(run(second), `weight ${weight}, floor ${floor}`).toEqual(expected);
      expect(run(first), `weight ${weight}, floor ${floor}, split`).toEqual(expected);
    }
  });

  it("falls back to one thread, with the same dot products, without a port holding the helper, when it is not allowed, or after its worker ended", async () => {
    const count = parallelScanRows + 100;
    const { first, second, query } = twinMatrices(7, count, 16);
    const before = helperChunkCount();
    const vector = query();
    const expected = Array.from(second.dots(vector).dots);
    expect(denseScanHelper()).toBeUndefined();
    expect(Array.from(first.dots(vector).dots)).toEqual(expected);
    holdHelper();
    allowDenseScanHelper(false);
    expect(denseScanHelper()).toBeUndefined();
    expect(Array.from(first.dots(vector).dots)).toEqual(expected);
    expect(helperChunkCount()).toBe(before);
    allowDenseScanHelper(true);
    const helper = denseScanHelper();
    expect(helper).toBeDefined();
    // A worker that ended (here: closed under the port's feet) is replaced on the next scan.
    helper?.close();
    await helper?.exited;
    expect(Array.from(first.dots(vector).dots)).toEqual(expected);
    expect(denseScanHelper()).not.toBe(helper);
    // A small matrix never uses a shared memory.
    expect(new DenseMatrix(parallelScanRows - 1, 16).parallel).toBe(false);
  });

  it("ends its worker thread when the last holder lets go", async () => {
    const releaseFirst = acquireDenseScanHelper();
    const releaseSecond = acquireDenseScanHelper();
    const { first, query } = twinMatrices(3, parallelScanRows, 16);
    first.dots(query());
    const helper = denseScanHelper();
    expect(helper?.usable).toBe(true);
    releaseFirst();
    releaseFirst();
    expect(helper?.usable).toBe(true);
    releaseSecond();
    await helper?.exited;
    expect(helper?.usable).toBe(false);
    expect(denseScanHelper()).toBeUndefined();
  });
});
