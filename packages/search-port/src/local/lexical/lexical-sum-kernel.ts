import { wasm } from "../dense/kernels/int8-dot-kernel.js";
import type { WasmMemory, WasmModule } from "../dense/kernels/int8-dot-kernel.js";
import {
  countedLoop,
  elementAddress,
  f64,
  i32,
  i32Const,
  kernelModule,
  localGet,
  localSet,
  localTee,
  memoryLimits,
} from "../dense/kernels/wasm-bytes.js";

/**
 * The lexical sums of `untrackedLexicalScores` for one term in one segment, as a tiny
 * WebAssembly module (no SIMD), in its own memory:
 *
 *     sum(slots, frequencies, norms, count, base, scores, scaled, normCount) -> 0, or 1
 *
 * For each of the `count` postings (slot `own`, a uint32 at `slots`; its frequency, a uint16
 * at `frequencies`), in order: `scores[base + own] += scaled * frequency / (frequency +
 * norms[own])`, the scores float64 at `scores`, the norms float32 at `norms`. The same IEEE
 * operations in the same order as the JavaScript loop (the norm widened to float64 as a
 * `Float32Array` read does), so every sum is bit for bit the same. A slot `own` of
 * `normCount` or more (postings of a checksum-valid but inconsistent index) stops it at once
 * with 1, before that posting's store: the loop, whose reads past its arrays give NaN and
 * whose writes past them go nowhere, sums then, not the kernel with other numbers. Why: a process's first
 * search runs that loop in V8's interpreter, which boxes each of its four float results;
 * at 100,000 chunks that took 20-30 ms of a cold query against about 2 once optimised
 * (issue 36 item 5). The module compiles at once, and runs at full speed from its first call.
 */
export function lexicalSumKernelBytes(): Uint8Array<ArrayBuffer> {
  const perPosting = [
    // own = slots[posting]
    ...elementAddress(slots, posting, 2),
    0x28,
    0x02,
    0x00, // i32.load align=4
    ...localTee(own),
    ...localGet(normCount),
    0x4f, // i32.ge_u
    0x04,
    0x40, // if: a slot past the segment's norms
    ...i32Const(1),
    0x0f, // return 1
    0x0b, // end if
    // frequency = f64(frequencies[posting])
    ...elementAddress(frequencies, posting, 1),
    0x2f,
    0x01,
    0x00, // i32.load16_u align=2
    0xb8, // f64.convert_i32_u
    ...localSet(frequency),
    // address = scores + (base + own) * 8, kept for the store
    ...localGet(scores),
    ...localGet(base),
    ...localGet(own),
    0x6a, // i32.add
    ...i32Const(3),
    0x74, // i32.shl
    0x6a, // i32.add
    ...localTee(address),
    ...localGet(address),
    0x2b,
    0x03,
    0x00, // f64.load align=8: the score so far
    ...localGet(scaled),
    ...localGet(frequency),
    0xa2, // f64.mul: scaled * frequency
    ...localGet(frequency),
    ...elementAddress(norms, own, 2),
    0x2a,
    0x02,
    0x00, // f32.load align=4
    0xbb, // f64.promote_f32
    0xa0, // f64.add: frequency + norm
    0xa3, // f64.div
    0xa0, // f64.add: the score so far + the part
    0x39,
    0x03,
    0x00, // f64.store align=8
  ];
  const body = [
    ...countedLoop(posting, count, perPosting),
    ...i32Const(0),
    0x0b, // end function
  ];
  return kernelModule({ parameters, results: [i32], exportName: "sum", locals: [0x02, 0x03, i32, 0x01, f64], body }, memoryLimits(false));
}

// The function's parameters: slots, frequencies, norms, count, base, scores (i32), scaled (f64),
// normCount (i32); then its locals: posting, own, address (i32), frequency (f64).
const parameters = [i32, i32, i32, i32, i32, i32, f64, i32];
const [slots, frequencies, norms, count, base, scores, scaled, normCount] = [0, 1, 2, 3, 4, 5, 6, 7];
const [posting, own, address, frequency] = [8, 9, 10, 11];

/** The kernel's function: see `lexicalSumKernelBytes`. */
export type LexicalSum = (
  slots: number,
  frequencies: number,
  norms: number,
  count: number,
  base: number,
  scores: number,
  scaled: number,
  normCount: number,
) => number;

let compiled: WasmModule | null | undefined;

/** The kernel wired to `memory`, or undefined where this runtime cannot run it. */
export function instantiateLexicalSumKernel(memory: WasmMemory): LexicalSum | undefined {
  if (wasm === undefined) return undefined;
  try {
    if (compiled === undefined) {
      const bytes = lexicalSumKernelBytes();
      compiled = wasm.validate(bytes) ? new wasm.Module(bytes) : null;
    }
    if (compiled === null) return undefined;
    return new wasm.Instance(compiled, { env: { memory } }).exports["sum"] as LexicalSum;
  } catch {
    compiled = null;
    return undefined;
  }
}
