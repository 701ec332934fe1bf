import { wasm } from "../dense/kernels/int8-dot-kernel.js";
import { grown, wasmMemory } from "../dense/kernels/wasm-memory.js";
import type { GrowableMemory } from "../dense/kernels/wasm-memory.js";
import type { LexicalSegment } from "./lexical-segment.js";
import { instantiateLexicalSumKernel } from "./lexical-sum-kernel.js";
import type { LexicalSum } from "./lexical-sum-kernel.js";
import type { MatchedTerm } from "./weigh-query-terms.js";

const pageSize = 65_536;
/**
 * Above this, the kernel's memory (8 bytes a chunk for the scores, 4 for the norms, 6 a posting of
 * the largest piece) would add too much to a large index's memory: the JavaScript loop sums. The
 * memory is kept with the matrix and only grows, so it stays at the most a search needed: about
 * 2 MB at 100,000 chunks, 20 MB at a million; 180 MB at ten million would pass this.
 */
const largestKernelBytes = 64 * 1024 * 1024;

/** A kernel instance on its own memory. */
interface Kernel {
  memory: GrowableMemory;
  sum: LexicalSum;
}

/**
 * The kernel kept for each scratch it has summed into, by the scratch's buffer (the dense
 * matrix's memory, the same object for every search of a snapshot since a matrix's memory is
 * never grown), and let go with it. A memory and an
 * instance made afresh at every search cost a warm hybrid search at 103,660 chunks 1.5-2 ms of
 * CPU at the median and 10 ms at the 95th percentile (mapping and zeroing the pages, and
 * collecting the old memories), more than the JavaScript loop it spares.
 */
const kernels = new WeakMap<ArrayBufferLike, Kernel>();

/** The kept kernel of `scores`' buffer, grown to `bytes`, or a new one; undefined when no memory is to be had. */
function kernelFor(scores: Float64Array, bytes: number): Kernel | undefined {
  const kept = kernels.get(scores.buffer);
  if (kept !== undefined && grown(kept.memory, bytes)) return kept;
  const memory = wasmMemory(Math.max(1, Math.ceil(bytes / pageSize)));
  if (memory === undefined) return undefined;
  const sum = instantiateLexicalSumKernel(memory);
  if (sum === undefined) return undefined;
  const kernel = { memory, sum };
  kernels.set(scores.buffer, kernel);
  return kernel;
}

/**
 * Adds every matched term's share to `scores` (all zero: the dense path's scratch), as
 * `untrackedLexicalScores` does, on the WebAssembly kernel (`lexicalSumKernelBytes`): the same
 * additions in the same order, so the same float64 sums. The scores are copied into the
 * kernel's own memory, summed there and copied back once at the end. Returns false,
 * having changed nothing, where the kernel does not pay or cannot run: no WebAssembly, a
 * segment with deletions (its slots are mapped through a table), fewer postings than an
 * eighth of the slots (copying the scores out would cost more than the loop it spares), or a
 * posting slot past its segment's records (an inconsistent index: the loop's NaN, not
 * another segment's numbers or a memory fault), or no memory for the kernel to be had.
 */
export function sumLexicalOnKernel(matched: readonly MatchedTerm[], scores: Float64Array): boolean {
  if (wasm === undefined) return false;
  const norms = new Map<LexicalSegment, { values: Float32Array; offset: number }>();
  const scoresBytes = scores.length * 8;
  let normsEnd = scoresBytes;
  let postings = 0;
  let largest = 0;
  for (const { pieces } of matched) {
    for (const { segment, postings: list } of pieces) {
      if (segment.composed !== undefined) return false;
      postings += list.slots.length;
      largest = Math.max(largest, list.slots.length);
      if (norms.has(segment)) continue;
      const values = segment.norms();
      if (segment.base + values.length > scores.length) return false;
      norms.set(segment, { values, offset: normsEnd });
      normsEnd += values.length * 4;
    }
  }
  if (postings * 8 < scores.length) return false;
  // The postings of one piece at a time after the norms: their slots (uint32), then their frequencies (uint16).
  const slotsOffset = Math.ceil(normsEnd / 4) * 4;
  const frequenciesOffset = slotsOffset + largest * 4;
  const bytes = frequenciesOffset + largest * 2;
  if (bytes > largestKernelBytes) return false;
  // No room for another memory (a process short of address space): the loop needs none.
  const kernel = kernelFor(scores, bytes);
  if (kernel === undefined) return false;
  const { memory, sum } = kernel;
  const buffer = memory.buffer;
  const kernelScores = new Float64Array(buffer, 0, scores.length);
  kernelScores.set(scores);
  for (const { values, offset } of norms.values()) new Float32Array(buffer, offset, values.length).set(values);
  for (const { pieces, scaled } of matched) {
    for (const { segment, postings: list } of pieces) {
      const { slots, frequencies } = list;
      const count = slots.length;
      new Uint32Array(buffer, slotsOffset, count).set(slots);
      new Uint16Array(buffer, frequenciesOffset, count).set(frequencies.subarray(0, count));
      const normsOffset = (norms.get(segment) as { offset: number }).offset;
      const normCount = (norms.get(segment) as { values: Float32Array }).values.length;
      if (sum(slotsOffset, frequenciesOffset, normsOffset, count, segment.base, 0, scaled, normCount) !== 0) return false;
    }
  }
  scores.set(kernelScores);
  return true;
}
