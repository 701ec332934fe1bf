import type { WasmMemory } from "./int8-dot-kernel.js";
import { wasm } from "./int8-dot-kernel.js";
import { section, signedLeb, unsignedLeb, wasmName as name } from "./wasm-bytes.js";

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
  const i32 = 0x7f;
  const f64 = 0x7c;
  const get = (index: number) => [0x20, index];
  const set = (index: number) => [0x21, index];
  const tee = (index: number) => [0x22, index];
  const i32Const = (value: number) => [0x41, ...signedLeb(value)];
  const f64Zero = [0x44, 0, 0, 0, 0, 0, 0, 0, 0];
  const f64One = [0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f];
  const memory = (opcode: number, align: number, offset: number) => [opcode, align, ...unsignedLeb(offset)];
  const i32Load = memory(0x28, 2, 0);
  const f32Load = memory(0x2a, 2, 0);
  const f64Load = (offset: number) => memory(0x2b, 3, offset);
  const f64Store = (offset: number) => memory(0x39, 3, offset);
  const i32Store = (offset: number) => memory(0x36, 2, offset);
  const [add, shl, eq, geU, and] = [[0x6a], [0x74], [0x46], [0x4f], [0x71]];
  const [fAdd, fSub, fMul, fDiv, fMin, fGt, fGe] = [[0xa0], [0xa1], [0xa2], [0xa3], [0xa4], [0x64], [0x66]];
  const [fromInt, fromUnsigned, promote, demote, select] = [[0xb7], [0xb8], [0xbb], [0xb6], [0x1b]];
  // Parameters: 0 dots, 1 inverseNorms, 2 lexical, 3 slot, 4 end (i32); 5 queryInverseNorm,
  // 6 lexicalWeight, 7 weight, 8 floor, 9 span, 10 bar (f64); 11 candidates, 12 capacity,
  // 13 state (i32). Locals: 14 written, 15 address (i32); 16 lexical, 17 dense, 18 score,
  // 19 best lexical, 20 best dense, 21 cosine (f64).
  const address = (base: number, shift: number) => [...get(base), ...get(3), ...i32Const(shift), ...shl, ...add];
  const body = [
    ...get(13),
    ...f64Load(0),
    ...set(19),
    ...get(13),
    ...f64Load(8),
    ...set(20),
    0x02,
    0x40, // block $done
    0x03,
    0x40, // loop $next
    ...get(3),
    ...get(4),
    ...geU,
    0x0d,
    0x01, // slot >= end: done
    // The lexical score, then a 0 in its place.
    ...address(2, 3),
    ...tee(15),
    ...f64Load(0),
    ...set(16),
    ...get(15),
    ...f64Zero,
    ...f64Store(0),
    // cosine = f32(dot * inverseNorm * queryInverseNorm), as a float64.
    ...address(0, 2),
    ...i32Load,
    ...fromInt,
    ...address(1, 2),
    ...f32Load,
    ...promote,
    ...fMul,
    ...get(5),
    ...fMul,
    ...demote,
    ...promote,
    ...set(21),
    // dense = cosine > floor ? min(1, (cosine - floor) / span) : 0
    ...f64One,
    ...get(21),
    ...get(8),
    ...fSub,
    ...get(9),
    ...fDiv,
    ...fMin,
    ...f64Zero,
    ...get(21),
    ...get(8),
    ...fGt,
    ...select,
    ...set(17),
    // The best of each: replaced only by a greater value, as `if (x > best) best = x`.
    ...get(16),
    ...get(19),
    ...get(16),
    ...get(19),
    ...fGt,
    ...select,
    ...set(19),
    ...get(17),
    ...get(20),
    ...get(17),
    ...get(20),
    ...fGt,
    ...select,
    ...set(20),
    // score = lexicalWeight * lexical + weight * dense
    ...get(6),
    ...get(16),
    ...fMul,
    ...get(7),
    ...get(17),
    ...fMul,
    ...fAdd,
    ...tee(18),
    ...f64Zero,
    ...fGt,
    ...get(18),
    ...get(10),
    ...fGe,
    ...and,
    0x04,
    0x40, // if score > 0 && score >= bar: a candidate
    ...get(11),
    ...get(14),
    ...i32Const(5),
    ...shl,
    ...add,
    ...tee(15),
    ...get(3),
    ...fromUnsigned,
    ...f64Store(0),
    ...get(15),
    ...get(18),
    ...f64Store(8),
    ...get(15),
    ...get(16),
    ...f64Store(16),
    ...get(15),
    ...get(17),
    ...f64Store(24),
    ...get(14),
    ...i32Const(1),
    ...add,
    ...set(14),
    0x0b, // end if
    ...get(3),
    ...i32Const(1),
    ...add,
    ...set(3),
    ...get(14),
    ...get(12),
    ...eq,
    0x0d,
    0x01, // the candidates are full: done
    0x0c,
    0x00, // next slot
    0x0b, // end loop
    0x0b, // end block
    ...get(13),
    ...get(19),
    ...f64Store(0),
    ...get(13),
    ...get(20),
    ...f64Store(8),
    ...get(13),
    ...get(14),
    ...i32Store(16),
    ...get(3),
    0x0b, // end function
  ];
  const locals = [0x02, 0x02, i32, 0x06, f64];
  const functionBody = [...locals, ...body];
  const parameters = [i32, i32, i32, i32, i32, f64, f64, f64, f64, f64, f64, i32, i32, i32];
  const limits = options.shared === true ? [0x03, 0x01, ...unsignedLeb(65_536)] : [0x00, 0x01];
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [0x01, 0x60, parameters.length, ...parameters, 0x01, i32]),
    ...section(2, [0x01, ...name("env"), ...name("memory"), 0x02, ...limits]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...name("fuse"), 0x00, 0x00]),
    ...section(10, [0x01, ...unsignedLeb(functionBody.length), ...functionBody]),
  ];
  return Uint8Array.from(bytes);
}

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
