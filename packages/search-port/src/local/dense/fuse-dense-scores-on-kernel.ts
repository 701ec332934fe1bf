import type { DenseFuse } from "./kernels/dense-fuse-kernel.js";
import type { DenseFusionOptions } from "./dense-fusion-options.js";
import type { DenseMatrixLayout } from "./dense-matrix-layout.js";

/** The fuse kernel and what it runs on: a matrix's memory, laid out as `layout`. Made once per matrix. */
export interface DenseFuseTarget {
  fuse: DenseFuse;
  memory: { readonly buffer: ArrayBufferLike };
  layout: DenseMatrixLayout;
}

/**
 * `fuseDenseScores` on the WebAssembly kernel `fuse`, bit for bit the same values: over rows
 * `start..end - 1` of the dot products `dots` (in the target's memory), with the inverse
 * norms and the lexical scores at their places in it. The kernel writes up to
 * `layout.candidateCapacity` candidates at a time, which go on to `offer` when they still
 * reach the bar.
 */
export function fuseDenseScoresOnKernel(
  target: DenseFuseTarget,
  dots: Int32Array,
  queryInverseNorm: number,
  range: { start: number; end: number },
  fusion: DenseFusionOptions,
): void {
  const { fuse, layout } = target;
  const buffer = target.memory.buffer;
  const { weight, denseFloor, best, offer } = fusion;
  const { stateOffset, candidatesOffset, candidateCapacity } = layout;
  const { start, end } = range;
  const state = new Float64Array(buffer, stateOffset, 2);
  const candidates = new Float64Array(buffer, candidatesOffset, candidateCapacity * 4);
  state[0] = best.lexical;
  state[1] = best.dense;
  const lexicalWeight = 1 - weight;
  const span = 1 - denseFloor;
  let bar = best.bar;
  for (let slot = start; slot < end; ) {
    slot = fuse(
      dots.byteOffset,
      layout.normsOffset,
      layout.lexicalOffset,
      slot,
      end,
      queryInverseNorm,
      lexicalWeight,
      weight,
      denseFloor,
      span,
      bar,
      candidatesOffset,
      candidateCapacity,
      stateOffset,
    );
    const written = new Int32Array(buffer, stateOffset + 16, 1)[0] as number;
    for (let index = 0; index < written * 4; index += 4) {
      const score = candidates[index + 1] as number;
      if (score >= bar) bar = offer(candidates[index] as number, score, candidates[index + 2] as number, candidates[index + 3] as number);
    }
  }
  best.lexical = state[0] as number;
  best.dense = state[1] as number;
  best.bar = bar;
}
