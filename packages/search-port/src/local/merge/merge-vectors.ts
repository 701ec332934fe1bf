import type { HashedFileWriter } from "../format/hashed-file-writer.js";
import { liveRuns } from "./live-runs.js";
import type { MergeInput } from "./merge-keys.js";
import { TypedOutput } from "./typed-output.js";

/**
 * The row size of the merged segment's vectors, or undefined when no segment with a live record
 * has vectors (the merged segment then has none). Segments must share one row size.
 */
export function mergedStride(inputs: readonly MergeInput[]): number | undefined {
  let stride: number | undefined;
  inputs.forEach(({ source }, at) => {
    const vectors = source.vectors;
    if (vectors === undefined) return;
    if (stride !== undefined && vectors.stride !== stride) {
      throw new Error(`writeMergedSegment: segment ${at} holds vector rows of ${vectors.stride} bytes, an earlier one of ${stride}`);
    }
    stride = vectors.stride;
  });
  return stride;
}

/**
 * Writes the vectors file of the live records of `inputs` (inverse norms, then rows of
 * `stride` bytes), copied in runs; a segment without vectors leaves its rows zero (no dense
 * score), as a merge in memory does.
 */
export async function writeMergedVectors(writer: HashedFileWriter, inputs: readonly MergeInput[], stride: number): Promise<void> {
  const norms = new TypedOutput(writer, (length) => new Float32Array(length));
  for (const { source, deleted } of inputs) {
    for (const [from, to] of liveRuns(source.count, deleted)) {
      if (source.vectors === undefined) for (let slot = from; slot < to; slot += 1) norms.push(0);
      else norms.pushAll(source.vectors.inverseNorms.subarray(from, to));
      await norms.drain();
    }
  }
  await norms.flush();
  let zeros = new Uint8Array(0);
  for (const { source, deleted } of inputs) {
    for (const [from, to] of liveRuns(source.count, deleted)) {
      if (source.vectors !== undefined) {
        await writer.write(source.vectors.rows(from, to));
        continue;
      }
      if (zeros.length < (to - from) * stride) zeros = new Uint8Array((to - from) * stride);
      await writer.write(zeros.subarray(0, (to - from) * stride));
    }
  }
}
