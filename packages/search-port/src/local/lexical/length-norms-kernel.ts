import { wasm } from "../dense/kernels/int8-dot-kernel.js";
import type { WasmModule } from "../dense/kernels/int8-dot-kernel.js";
import { wasmMemory } from "../dense/kernels/wasm-memory.js";
import { countedLoop, elementAddress, f64, i32, kernelModule, localGet, memoryLimits } from "../dense/kernels/wasm-bytes.js";

/**
 * `normsOf` as a tiny WebAssembly module (no SIMD), in its own memory:
 *
 *     norms(lengths, output, count, k1, oneMinusB, b, average)
 *
 * For each of the `count` lengths (uint32 at `lengths`): the float32 at `output` is
 * `k1 * (oneMinusB + b * length / average)` computed in float64 and rounded to float32, the
 * operations and rounding of the JavaScript loop storing into a `Float32Array`, so the same
 * bits. Why: a process's first search computes the norms of every record once, in V8's
 * interpreter (4-6 ms and 0.7 MB of boxed numbers at 103,660 chunks, issue 36 item 5).
 */
export function lengthNormsKernelBytes(): Uint8Array<ArrayBuffer> {
  const perSlot = [
    ...elementAddress(output, slot, 2), // where the norm goes
    ...localGet(k1),
    ...localGet(oneMinusB),
    ...localGet(b),
    ...elementAddress(lengths, slot, 2),
    0x28,
    0x02,
    0x00, // i32.load align=4
    0xb8, // f64.convert_i32_u
    0xa2, // f64.mul: b * length
    ...localGet(average),
    0xa3, // f64.div
    0xa0, // f64.add: oneMinusB + ...
    0xa2, // f64.mul: k1 * ...
    0xb6, // f32.demote_f64
    0x38,
    0x02,
    0x00, // f32.store align=4
  ];
  const body = [...countedLoop(slot, count, perSlot), 0x0b /* end function */];
  return kernelModule({ parameters, results: [], exportName: "norms", locals: [0x01, 0x01, i32], body }, memoryLimits(false));
}

// The parameters: lengths, output, count (i32), k1, oneMinusB, b, average (f64); then the local slot (i32).
const parameters = [i32, i32, i32, f64, f64, f64, f64];
const [lengths, output, count, k1, oneMinusB, b, average, slot] = [0, 1, 2, 3, 4, 5, 6, 7];

type LengthNorms = (lengths: number, output: number, count: number, k1: number, oneMinusB: number, b: number, average: number) => void;

let compiled: WasmModule | null | undefined;

/**
 * The norms of the first `count` of `lengths` (`normsOf`'s formula with `k1` and `b`), or
 * undefined where this runtime cannot run the kernel (the caller's loop computes them then).
 */
export function lengthNormsOnKernel(
  values: Uint32Array,
  total: number,
  parameters: { k1: number; b: number; average: number },
): Float32Array | undefined {
  if (wasm === undefined || values.length < total) return undefined;
  try {
    if (compiled === undefined) {
      const bytes = lengthNormsKernelBytes();
      compiled = wasm.validate(bytes) ? new wasm.Module(bytes) : null;
    }
    if (compiled === null) return undefined;
    // No memory to be had this time: the caller's loop, and the kernel kept for the next index.
    const memory = wasmMemory(Math.max(1, Math.ceil((total * 8) / 65_536)));
    if (memory === undefined) return undefined;
    const run = new wasm.Instance(compiled, { env: { memory } }).exports["norms"] as LengthNorms;
    new Uint32Array(memory.buffer, 0, total).set(values.subarray(0, total));
    run(0, total * 4, total, parameters.k1, 1 - parameters.b, parameters.b, parameters.average);
    return new Float32Array(memory.buffer, total * 4, total).slice();
  } catch {
    compiled = null;
    return undefined;
  }
}
