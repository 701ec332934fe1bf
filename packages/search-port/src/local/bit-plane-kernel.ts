import { wasm } from "./int8-dot-kernel.js";
import type { WasmMemory, WasmModule } from "./int8-dot-kernel.js";
import { section, signedLeb, unsignedLeb, wasmName as name } from "./wasm-bytes.js";

/**
 * A tiny WebAssembly module (SIMD128) that scores one-bit row codes against a 4-bit query
 * held as four bit planes:
 *
 *     scan(planesPointer, codesPointer, blocks, count, outputPointer)
 *
 * Each row is `blocks` 16-byte blocks of bits (bit i of the row at byte i >> 3, bit i & 7);
 * the query is, per block, four 16-byte planes back to back (plane p holds bit p of each
 * 4-bit value u_i). One int32 per row is written from `outputPointer`:
 *
 *     sum over the row's set bits i of (u_i - 8)
 *
 * computed per block as popcnt(b & P0) + 2 popcnt(b & P1) + 4 popcnt(b & P2) + 8 popcnt(b & P3)
 * - 8 popcnt(b), byte by byte (each byte's value lies in -64..120, so int8 lanes hold it),
 * then widened pairwise to int32 lanes. `bit-plane-kernel.test.ts` checks it against plain JS.
 */
export function bitPlaneKernelBytes(): Uint8Array<ArrayBuffer> {
  const i32 = 0x7f;
  const v128 = 0x7b;
  const simd = 0xfd;
  const op = (code: number) => [simd, ...unsignedLeb(code)];
  const localGet = (index: number) => [0x20, index];
  const localSet = (index: number) => [0x21, index];
  const localTee = (index: number) => [0x22, index];
  const i32Const = (value: number) => [0x41, ...signedLeb(value)];
  const i32Add = [0x6a];
  const i32Sub = [0x6b];
  const v128Load = (offset: number) => [simd, 0x00, 0x00, ...unsignedLeb(offset)];
  const and = op(0x4e);
  const popcnt = op(0x62);
  const shl = op(0x6b);
  const add8 = op(0x6e);
  const sub8 = op(0x71);
  const pairwise16 = op(0x7c);
  const pairwise32 = op(0x7e);
  const add32 = op(0xae);
  const lane = (index: number) => [simd, ...unsignedLeb(0x1b), index];
  /** popcnt(block & plane p), shifted left by p. */
  const plane = (p: number) => [
    ...localGet(8),
    ...localGet(6),
    ...v128Load(16 * p),
    ...and,
    ...popcnt,
    ...(p > 0 ? [...i32Const(p), ...shl] : []),
  ];
  // Parameters: 0 planes, 1 codes, 2 blocks, 3 count, 4 output. Locals: 5 block counter,
  // 6 planes cursor (i32); 7 accumulator, 8 current block (v128).
  const body = [
    0x02,
    0x40, // block
    ...localGet(3),
    0x45,
    0x0d,
    0x00, // count == 0: done
    0x03,
    0x40, // loop over rows
    simd,
    ...unsignedLeb(0x0c),
    ...new Array<number>(16).fill(0),
    ...localSet(7),
    ...localGet(0),
    ...localSet(6),
    ...localGet(2),
    ...localSet(5),
    0x03,
    0x40, // loop over blocks
    ...localGet(1),
    ...v128Load(0),
    ...localSet(8),
    ...localGet(7),
    ...plane(0),
    ...plane(1),
    ...add8,
    ...plane(2),
    ...add8,
    ...plane(3),
    ...add8,
    ...localGet(8),
    ...popcnt,
    ...i32Const(3),
    ...shl,
    ...sub8,
    ...pairwise16,
    ...pairwise32,
    ...add32,
    ...localSet(7),
    ...localGet(1),
    ...i32Const(16),
    ...i32Add,
    ...localSet(1),
    ...localGet(6),
    ...i32Const(64),
    ...i32Add,
    ...localSet(6),
    ...localGet(5),
    ...i32Const(1),
    ...i32Sub,
    ...localTee(5),
    0x0d,
    0x00,
    0x0b, // end blocks
    ...localGet(4),
    ...localGet(7),
    ...lane(0),
    ...localGet(7),
    ...lane(1),
    ...i32Add,
    ...localGet(7),
    ...lane(2),
    ...i32Add,
    ...localGet(7),
    ...lane(3),
    ...i32Add,
    0x36,
    0x02,
    0x00, // i32.store
    ...localGet(4),
    ...i32Const(4),
    ...i32Add,
    ...localSet(4),
    ...localGet(3),
    ...i32Const(1),
    ...i32Sub,
    ...localTee(3),
    0x0d,
    0x00,
    0x0b, // end rows
    0x0b, // end block
    0x0b, // end function
  ];
  const locals = [0x02, 0x02, i32, 0x02, v128];
  const functionBody = [...locals, ...body];
  const bytes = [
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [0x01, 0x60, 0x05, i32, i32, i32, i32, i32, 0x00]),
    ...section(2, [0x01, ...name("env"), ...name("memory"), 0x02, 0x00, 0x01]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...name("scan"), 0x00, 0x00]),
    ...section(10, [0x01, ...unsignedLeb(functionBody.length), ...functionBody]),
  ];
  return Uint8Array.from(bytes);
}

export type BitPlaneScan = (planes: number, codes: number, blocks: number, count: number, output: number) => void;

let compiled: WasmModule | null | undefined;

/** The compiled kernel, or `null` when this runtime has no WebAssembly SIMD. Compiled once. */
export function bitPlaneKernel(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = bitPlaneKernelBytes();
    compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

/** Wires the kernel to a memory; undefined when there is no kernel. */
export function instantiateBitPlaneKernel(memory: WasmMemory): BitPlaneScan | undefined {
  const kernel = bitPlaneKernel();
  if (kernel === null || wasm === undefined) return undefined;
  const instance = new wasm.Instance(kernel, { env: { memory } });
  return instance.exports["scan"] as BitPlaneScan;
}
