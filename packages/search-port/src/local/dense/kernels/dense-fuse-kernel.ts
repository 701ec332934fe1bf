import type { WasmMemory } from "./int8-dot-kernel.js";
import { wasm } from "./int8-dot-kernel.js";
import { f64, i32, i32Const, kernelModule, localGet, localSet, localTee, memoryLimits, unsignedLeb } from "./wasm-bytes.js";

/**
 * The fused pass of `fuseDenseScores`, as a tiny WebAssembly module (no SIMD), over the
 * slots `start..end - 1` of the arrays in a matrix's memory:
 *
 *     fuse(dots, inverseNorms, lexical, start, end, queryInverseNorm, lexicalWeight, weight,
 *          floor, span, bar, candidates, capacity, state) -> the slot it stopped at
 *
 * Per slot, in float64 as JavaScript computes it: the cosine
 * `f32(dot * inverseNorm * queryInverseNorm)`, the dense score (0 unless cosine > floor,
 * else `min(1, (cosine - floor) / span)` with `span = 1 - floor`), the fused score
 * `lexicalWeight * lexical + weight * dense`, the best lexical and dense scores (float64 at
 * `state` and `state + 8`, read and written back). The slot's lexical score is set back to 0
 * (the scratch is clean after the pass). A slot whose fused score is positive and at least
 * `bar` is written to `candidates` as four float64 (slot, score, lexical, dense); the pass
 * stops after `capacity` of them (their number is written as an int32 at `state + 16`), so
 * the caller offers them to its heap, raises the bar and calls again from the slot returned.
 * Every operation is an IEEE one that JavaScript does the same way (no fused multiply-add),
 * so each value is bit for bit the one `fuseDenseScores` computes (fuse-dense-scores.test.ts).
 */
export function denseFuseKernelBytes(options: { shared?: boolean } = {}): Uint8Array<ArrayBuffer> {
  const body = [
    ...readBests,
    0x02,
    0x40, // block $done
    0x03,
    0x40, // loop $next
    ...localGet(slot),
    ...localGet(end),
    ...geU,
    0x0d,
    0x01, // slot >= end: done
    ...takeLexical,
    ...cosineOfSlot,
    ...denseOfCosine,
    ...keepBests,
    ...fusedScore,
    0x04,
    0x40, // if score > 0 && score >= bar: a candidate
    ...writeCandidate,
    0x0b, // end if
    ...nextSlot,
    0x0b, // end loop
    0x0b, // end block
    ...writeBests,
    ...localGet(slot),
    0x0b, // end function
  ];
  return kernelModule(
    { parameters, results: [i32], exportName: "fuse", locals: [0x02, 0x02, i32, 0x06, f64], body },
    memoryLimits(options.shared === true),
  );
}

// The indices of the function's parameters: dots, inverseNorms, lexical, slot, end (i32);
// queryInverseNorm, lexicalWeight, weight, floor, span, bar (f64); candidates, capacity,
// state (i32). Then of its locals: written, address (i32); lexical score, dense, score, best
// lexical, best dense, cosine (f64).
const parameters = [i32, i32, i32, i32, i32, f64, f64, f64, f64, f64, f64, i32, i32, i32];
const [dots, inverseNorms, lexical, slot, end, queryInverseNorm] = [0, 1, 2, 3, 4, 5];
const [lexicalWeight, weight, floor, span, bar, candidates, capacity, state] = [6, 7, 8, 9, 10, 11, 12, 13];
const [written, address, lexicalScore, dense, score, bestLexical, bestDense, cosine] = [14, 15, 16, 17, 18, 19, 20, 21];

const f64Zero = [0x44, 0, 0, 0, 0, 0, 0, 0, 0];
const f64One = [0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f];
const memoryAccess = (opcode: number, align: number, offset: number) => [opcode, align, ...unsignedLeb(offset)];
const i32Load = memoryAccess(0x28, 2, 0);
const f32Load = memoryAccess(0x2a, 2, 0);
const f64Load = (offset: number) => memoryAccess(0x2b, 3, offset);
const f64Store = (offset: number) => memoryAccess(0x39, 3, offset);
const i32Store = (offset: number) => memoryAccess(0x36, 2, offset);
const [add, shl, eq, geU, and] = [[0x6a], [0x74], [0x46], [0x4f], [0x71]];
const [fAdd, fSub, fMul, fDiv, fMin, fGt, fGe] = [[0xa0], [0xa1], [0xa2], [0xa3], [0xa4], [0x64], [0x66]];
const [fromInt, fromUnsigned, promote, demote, select] = [[0xb7], [0xb8], [0xbb], [0xb6], [0x1b]];
/** The address of the slot's element of the array at `base`, of `1 << shift` bytes each. */
const elementAddress = (base: number, shift: number) => [...localGet(base), ...localGet(slot), ...i32Const(shift), ...shl, ...add];

/** The best lexical and dense scores so far, from `state`. */
const readBests = [
  ...[...localGet(state), ...f64Load(0), ...localSet(bestLexical)],
  ...[...localGet(state), ...f64Load(8), ...localSet(bestDense)],
];

/** The slot's lexical score, then a 0 in its place. */
const takeLexical = [
  ...[...elementAddress(lexical, 3), ...localTee(address), ...f64Load(0), ...localSet(lexicalScore)],
  ...[...localGet(address), ...f64Zero, ...f64Store(0)],
];

/** cosine = f32(dot * inverseNorm * queryInverseNorm), as a float64. */
const cosineOfSlot = [
  ...[...elementAddress(dots, 2), ...i32Load, ...fromInt],
  ...[...elementAddress(inverseNorms, 2), ...f32Load, ...promote, ...fMul],
  ...[...localGet(queryInverseNorm), ...fMul, ...demote, ...promote, ...localSet(cosine)],
];

/** dense = cosine > floor ? min(1, (cosine - floor) / span) : 0 */
const denseOfCosine = [
  ...[...f64One, ...localGet(cosine), ...localGet(floor), ...fSub, ...localGet(span), ...fDiv, ...fMin],
  ...[...f64Zero, ...localGet(cosine), ...localGet(floor), ...fGt, ...select, ...localSet(dense)],
];

/** `best = value > best ? value : best`, as `if (x > best) best = x`: replaced only by a greater value. */
const keepGreater = (value: number, best: number) => [
  ...[...localGet(value), ...localGet(best), ...localGet(value), ...localGet(best)],
  ...[...fGt, ...select, ...localSet(best)],
];

/** The best of each. */
const keepBests = [...keepGreater(lexicalScore, bestLexical), ...keepGreater(dense, bestDense)];

/** score = lexicalWeight * lexical + weight * dense; leaves `score > 0 && score >= bar`. */
const fusedScore = [
  ...[...localGet(lexicalWeight), ...localGet(lexicalScore), ...fMul, ...localGet(weight), ...localGet(dense), ...fMul, ...fAdd],
  ...[...localTee(score), ...f64Zero, ...fGt, ...localGet(score), ...localGet(bar), ...fGe, ...and],
];

/** The candidate's four float64 (slot, score, lexical, dense) at `candidates + written * 32`; one more written. */
const writeCandidate = [
  ...[...localGet(candidates), ...localGet(written), ...i32Const(5), ...shl, ...add, ...localTee(address)],
  ...[...localGet(slot), ...fromUnsigned, ...f64Store(0)],
  ...[...localGet(address), ...localGet(score), ...f64Store(8)],
  ...[...localGet(address), ...localGet(lexicalScore), ...f64Store(16)],
  ...[...localGet(address), ...localGet(dense), ...f64Store(24)],
  ...[...localGet(written), ...i32Const(1), ...add, ...localSet(written)],
];

/** The next slot, unless the candidates are full. */
const nextSlot = [
  ...[...localGet(slot), ...i32Const(1), ...add, ...localSet(slot)],
  ...[...localGet(written), ...localGet(capacity), ...eq],
  0x0d,
  0x01, // the candidates are full: done
  0x0c,
  0x00, // next slot
];

/** The best scores back to `state`, and the number of candidates written at `state + 16`. */
const writeBests = [
  ...[...localGet(state), ...localGet(bestLexical), ...f64Store(0)],
  ...[...localGet(state), ...localGet(bestDense), ...f64Store(8)],
  ...[...localGet(state), ...localGet(written), ...i32Store(16)],
];

export type DenseFuse = (
  dots: number,
  inverseNorms: number,
  lexical: number,
  start: number,
  end: number,
  queryInverseNorm: number,
  lexicalWeight: number,
  weight: number,
  floor: number,
  span: number,
  bar: number,
  candidates: number,
  capacity: number,
  state: number,
) => number;

const compiled = new Map<boolean, unknown>();

/** The fused pass wired to `memory` (a shared one with `shared`), or undefined where the runtime cannot compile it. */
export function instantiateDenseFuseKernel(memory: WasmMemory, options: { shared?: boolean } = {}): DenseFuse | undefined {
  if (wasm === undefined) return undefined;
  const shared = options.shared === true;
  try {
    if (!compiled.has(shared)) {
      const bytes = denseFuseKernelBytes({ shared });
      compiled.set(shared, wasm.validate(bytes) ? new wasm.Module(bytes) : null);
    }
    const kernel = compiled.get(shared);
    if (kernel === null || kernel === undefined) return undefined;
    const instance = new wasm.Instance(kernel as InstanceType<typeof wasm.Module>, { env: { memory } });
    return instance.exports["fuse"] as DenseFuse;
  } catch {
    compiled.set(shared, null);
    return undefined;
  }
}
