import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { bm25B, bm25K1 } from "./bm25.js";
import { lengthNormsOnKernel } from "./length-norms-kernel.js";

/**
 * From this many records on, `normsOf` runs on the WebAssembly kernel (below, the loop costs
 * less than setting it up), and up to `normsKernelUpTo` records: above, the kernel's memory
 * (8 bytes a record, on top of the norms) would raise a large index's peak memory at its
 * first search.
 */
const normsKernelFrom = 4096;
const normsKernelUpTo = 4_000_000;

/** k1 * (1 - b + b * length / average length) per slot, computed on first use and kept with the snapshot. */
export function lengthNorms(snapshot: IndexSnapshot): Float32Array {
  if (snapshot.lengthNorms !== undefined) return snapshot.lengthNorms;
  snapshot.lengthNorms = normsOf(snapshot.lexicon.lengths(), snapshot.count, averageLength(snapshot.lexicon.totalLength, snapshot.count));
  return snapshot.lengthNorms;
}

/** The BM25 average length of `count` records of `totalLength` indexed terms in all (1 for none). */
export function averageLength(totalLength: number, count: number): number {
  return count === 0 ? 1 : Math.max(totalLength / count, 1e-9);
}

/**
 * k1 * (1 - b + b * length / `average`) for the first `count` of `lengths`: the one formula of
 * every norm, so that a segment's records searched in place get the very numbers one index of
 * the live records gives them.
 */
export function normsOf(lengths: Uint32Array, count: number, average: number): Float32Array {
  // Many records: the kernel, the same bits without the interpreter's cost in a cold process.
  const computed =
    count >= normsKernelFrom && count <= normsKernelUpTo
      ? lengthNormsOnKernel(lengths, count, { k1: bm25K1, b: bm25B, average })
      : undefined;
  if (computed !== undefined) return computed;
  const norms = new Float32Array(count);
  for (let slot = 0; slot < count; slot += 1) {
    norms[slot] = bm25K1 * (1 - bm25B + (bm25B * (lengths[slot] as number)) / average);
  }
  return norms;
}
