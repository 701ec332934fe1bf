import { describe, expect, it, vi } from "vitest";
import { DenseMatrix } from "../dense/dense-matrix.js";
import { wasm } from "../dense/kernels/int8-dot-kernel.js";
import type { WasmMemory } from "../dense/kernels/int8-dot-kernel.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { random } from "../test/seeded-random-test-fixtures.js";
import type { LexicalSegment } from "./lexical-segment.js";
import { lexicalScores } from "./lexical-scores.js";
import { lexicalSumKernelBytes } from "./lexical-sum-kernel.js";
import { sumLexicalOnKernel } from "./sum-lexical-on-kernel.js";
import type { MatchedTerm } from "./weigh-query-terms.js";

/** Segments side by side over `count` slots, each with its own norms, and terms with postings in them. */
function fixture(seed: number, count: number, segmentCount: number, termCount: number, share: number) {
  const next = random(seed);
  const size = Math.ceil(count / segmentCount);
  const segments = Array.from({ length: segmentCount }, (_, index) => {
    const base = index * size;
    const own = Math.max(0, Math.min(size, count - base));
    const norms = Float32Array.from({ length: own }, () => 0.3 + next() * 2.7);
    return { position: index, count: own, base, composed: undefined, norms: () => norms } as unknown as LexicalSegment;
  });
  const matched: MatchedTerm[] = Array.from({ length: termCount }, () => ({
    term: {} as MatchedTerm["term"],
    scaled: next() * 3.1,
    pieces: segments.map((segment, position) => {
      const slots: number[] = [];
      for (let slot = 0; slot < segment.count; slot += 1) if (next() < share) slots.push(slot);
      const frequencies = Uint16Array.from(slots, () => 1 + Math.floor(next() ** 4 * 300));
      return { segment, termIndex: 0, boundsKey: position, postings: { slots: Uint32Array.from(slots), frequencies } };
    }),
  }));
  return { matched, snapshot: { count, scratch: undefined } as unknown as IndexSnapshot };
}

describe("issue 36 item 5: the lexical sums of a hybrid search on the WebAssembly kernel", () => {
  it("gives every slot the float64 sum of the JavaScript loop, bit for bit, term by term over several segments", () => {
    const { matched, snapshot } = fixture(365, 20_000, 3, 5, 0.3);
    const tracked = lexicalScores(snapshot, matched);
    const expected = Float64Array.from(tracked.scores);
    tracked.release();
    const scratch = new Float64Array(20_000);
    expect(sumLexicalOnKernel(matched, scratch)).toBe(true);
    let differing = 0;
    for (let slot = 0; slot < scratch.length; slot += 1) if (!Object.is(scratch[slot], expected[slot])) differing += 1;
    expect(differing).toBe(0);
    expect(expected.filter((score) => score > 0).length).toBeGreaterThan(10_000);
  });

  it("is what the dense path's untracked scores use, with the same sums", () => {
    const { matched, snapshot } = fixture(366, 5_000, 2, 3, 0.5);
    const tracked = lexicalScores(snapshot, matched);
    const expected = Float64Array.from(tracked.scores);
    tracked.release();
    const scratch = new Float64Array(5_000);
    const untracked = lexicalScores(snapshot, matched, scratch);
    expect(Array.from(untracked.scores)).toEqual(Array.from(expected));
    untracked.release();
    expect(scratch.every((score) => score === 0)).toBe(true);
  });

  it("leaves the sums to the JavaScript loop when the postings are few for the slots, or a segment has deletions", () => {
    const few = fixture(367, 40_000, 2, 1, 0.05);
    const scratch = new Float64Array(40_000);
    expect(sumLexicalOnKernel(few.matched, scratch)).toBe(false);
    expect(scratch.every((score) => score === 0)).toBe(true);
    const many = fixture(368, 1_000, 1, 2, 0.5);
    const piece = (many.matched[0] as MatchedTerm).pieces[0] as MatchedTerm["pieces"][number];
    (piece as { segment: LexicalSegment }).segment = { ...piece.segment, composed: new Int32Array(1_000) };
    expect(sumLexicalOnKernel(many.matched, new Float64Array(1_000))).toBe(false);
  });

  it("gives the JavaScript loop's sums, not another segment's norms or a memory fault, for a posting slot beyond its segment (issue 36 review)", () => {
    // A checksum-valid index whose postings name a slot past their segment's records: the loop
    // reads an undefined norm (NaN) and writes past the scores nowhere; the kernel must not
    // read or write another segment's numbers, nor trap.
    for (const beyond of [12, 25, 70_000, 4_294_967_295]) {
      const { matched, snapshot } = fixture(369, 20, 2, 1, 1);
      const piece = (matched[0] as MatchedTerm).pieces[0] as MatchedTerm["pieces"][number];
      const slots = Uint32Array.from([...piece.postings.slots, beyond]);
      piece.postings = { slots, frequencies: Uint16Array.from(slots, () => 2) };
      const tracked = lexicalScores(snapshot, matched);
      const expected = Array.from(tracked.scores);
      tracked.release();
      const scratch = new Float64Array(20);
      const untracked = lexicalScores(snapshot, matched, scratch);
      expect(Array.from(untracked.scores), `slot ${beyond}`).toEqual(expected);
    }
  });

  it("sums in the loop when the kernel's memory cannot be had (a process out of address space) (issue 36 review)", () => {
    // Under `ulimit -v 14000000` Node 20 gets one WebAssembly memory (the dense matrix's), and a
    // second throws "RangeError: WasmMemory(): could not allocate memory".
    const { matched, snapshot } = fixture(370, 5_000, 2, 3, 0.5);
    const tracked = lexicalScores(snapshot, matched);
    const expected = Array.from(tracked.scores);
    tracked.release();
    const memory = vi.spyOn(wasm as NonNullable<typeof wasm>, "Memory").mockImplementation(function refused() {
      throw new RangeError("WasmMemory(): could not allocate memory");
    });
    try {
      const scratch = new Float64Array(5_000);
      expect(Array.from(lexicalScores(snapshot, matched, scratch).scores)).toEqual(expected);
      expect(memory).toHaveBeenCalled();
    } finally {
      memory.mockRestore();
    }
  });

  it("keeps its memory for the dense matrix it sums for, shared or not: later searches make no new memory, a larger one grows it, the sums stay the loop's", () => {
    // A warm hybrid search made a memory and an instance at every search: 1.5-2 ms of CPU at the
    // median and 10 ms at the 95th percentile at 103,660 chunks, more than the loop it spared.
    // Each search's scratch is a new view of the matrix's memory (`lexicalScratch`), shared with
    // the dense scan's helper from `parallelScanRows` rows on: the kernel is kept by that memory.
    const shared = new DenseMatrix(20_000, 16, { parallel: true });
    const own = new DenseMatrix(20_000, 16, { parallel: false });
    expect(shared.lexicalScratch().buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(own.lexicalScratch().buffer).toBeInstanceOf(ArrayBuffer);
    const api = wasm as NonNullable<typeof wasm>;
    const Memory = api.Memory;
    const made: WasmMemory[] = [];
    // Counted, and each a real memory (a constructor that returns an object gives that object).
    const memory = vi.spyOn(api, "Memory").mockImplementation(function counted(descriptor) {
      const one = new Memory(descriptor);
      made.push(one);
      return one;
    });
    try {
      for (const matrix of [shared, own]) {
        made.length = 0;
        let firstBytes = 0;
        for (const [seed, share] of [
          [371, 0.2],
          [372, 0.2],
          [373, 0.6],
          [374, 0.3],
        ] as const) {
          const { matched, snapshot } = fixture(seed, 20_000, 2, 4, share);
          const tracked = lexicalScores(snapshot, matched);
          const expected = Float64Array.from(tracked.scores);
          tracked.release();
          const scratch = matrix.lexicalScratch();
          expect(sumLexicalOnKernel(matched, scratch)).toBe(true);
          firstBytes ||= (made[0] as WasmMemory).buffer.byteLength;
          expect(
            scratch.every((score, slot) => Object.is(score, expected[slot])),
            `seed ${seed}`,
          ).toBe(true);
          scratch.fill(0);
        }
        // One memory, made at the first search; the third needed more room, and it grew.
        expect(made).toHaveLength(1);
        expect((made[0] as WasmMemory).buffer.byteLength).toBeGreaterThan(firstBytes);
      }
      expect(memory).toHaveBeenCalledTimes(2);
      // Another scratch's memory, another kernel.
      expect(sumLexicalOnKernel(fixture(375, 20_000, 2, 4, 0.2).matched, new Float64Array(20_000))).toBe(true);
      expect(memory).toHaveBeenCalledTimes(3);
    } finally {
      memory.mockRestore();
    }
  });

  it("is a module this runtime's WebAssembly accepts", () => {
    expect(wasm?.validate(lexicalSumKernelBytes())).toBe(true);
  });
});
