import { wasm } from "./int8-dot-kernel.js";
import type { WasmMemory, WasmModule } from "./int8-dot-kernel.js";
import { section, signedLeb, unsignedLeb, wasmName as name } from "./wasm-bytes.js";

/**
 * A tiny WebAssembly module (SIMD128) that scores one-bit row codes against a query by
 * table look-ups, 32 rows at a time ("fast scan"):
 *
 *     scan(tables, codes, quads, groups, output)
 *
 * A row's bits are cut into nibbles (4 dimensions each). The codes of a group of 32 rows lie
 * nibble by nibble: 16 bytes per nibble, byte b holding that nibble of row b (low half) and
 * of row b + 16 (high half). The query comes as one 16-byte table per nibble, entry v being
 * the query's value summed over the dimensions whose bit is set in v; one
 * `i8x16.swizzle` so looks up 16 rows' partial sums at once. Nibbles come in quads (16
 * dimensions): a quad's four look-ups are summed in int8 lanes (the caller keeps each entry
 * within -28..28, so four fit), then added into int16 lanes (at most 292 quads, 4,672
 * dimensions, fit); at the end of a group its 32 int32 sums are stored from `output` on.
 * `nibble-table-kernel.test.ts` checks it against plain JS.
 */
export function nibbleTableKernelBytes(): Uint8Array<ArrayBuffer> {
  const i32 = 0x7f;
  const v128 = 0x7b;
  const simd = 0xfd;
  const op = (code: number) => [simd, ...unsignedLeb(code)];
  const get = (index: number) => [0x20, index];
  const set = (index: number) => [0x21, index];
  const tee = (index: number) => [0x22, index];
  const i32Const = (value: number) => [0x41, ...signedLeb(value)];
  const i32Add = [0x6a];
  const i32Sub = [0x6b];
  const load = (offset: number) => [simd, 0x00, 0x00, ...unsignedLeb(offset)];
  const store = (offset: number) => [simd, 0x0b, 0x00, ...unsignedLeb(offset)];
  const constant = (byte: number) => [simd, ...unsignedLeb(0x0c), ...new Array<number>(16).fill(byte)];
  const and = op(0x4e);
  const swizzle = op(0x0e);
  const add8 = op(0x6e);
  const shiftRight16 = op(0x8d);
  const add16 = op(0x8e);
  const widenLow8 = op(0x87);
  const widenHigh8 = op(0x88);
  const widenLow16 = op(0xa7);
  const widenHigh16 = op(0xa8);
  // Parameters: 0 tables, 1 codes, 2 quads, 3 groups, 4 output. Locals (i32): 5 quad counter,
  // 6 tables cursor. Locals (v128): 7..10 int16 sums of rows 0-7, 8-15, 16-23, 24-31;
  // 11, 12 int8 sums of a quad for rows 0-15 and 16-31; 13 the nibble's codes; 14 its
  // table; 15 the mask 0x0f.
  const nibble = (k: number) => [
    ...get(6),
    ...load(16 * k),
    ...tee(14),
    ...get(1),
    ...load(16 * k),
    ...tee(13),
    ...get(15),
    ...and,
    ...swizzle,
    ...(k === 0 ? [] : [...get(11), ...add8]),
    ...set(11),
    ...get(14),
    ...get(13),
    ...i32Const(4),
    ...shiftRight16,
    ...get(15),
    ...and,
    ...swizzle,
    ...(k === 0 ? [] : [...get(12), ...add8]),
    ...set(12),
  ];
  const accumulate = (local: number, sum: number, widen: number[]) => [...get(local), ...get(sum), ...widen, ...add16, ...set(local)];
  const emit = (local: number, offset: number) => [
    ...get(4),
    ...get(local),
    ...widenLow16,
    ...store(offset),
    ...get(4),
    ...get(local),
    ...widenHigh16,
    ...store(offset + 16),
  ];
  const zero = [7, 8, 9, 10].flatMap((local) => [...constant(0), ...set(local)]);
  const body = [
    ...constant(0x0f),
    ...set(15),
    0x02,
    0x40, // block
    ...get(3),
    0x45,
    0x0d,
    0x00, // groups == 0: done
    0x03,
    0x40, // loop over groups
    ...zero,
    ...get(0),
    ...set(6),
    ...get(2),
    ...set(5),
    0x03,
    0x40, // loop over quads
    ...nibble(0),
    ...nibble(1),
    ...nibble(2),
    ...nibble(3),
    ...accumulate(7, 11, widenLow8),
    ...accumulate(8, 11, widenHigh8),
    ...accumulate(9, 12, widenLow8),
    ...accumulate(10, 12, widenHigh8),
    ...get(1),
    ...i32Const(64),
    ...i32Add,
    ...set(1),
    ...get(6),
    ...i32Const(64),
    ...i32Add,
    ...set(6),
    ...get(5),
    ...i32Const(1),
    ...i32Sub,
    ...tee(5),
    0x0d,
    0x00,
    0x0b, // end quads
    ...emit(7, 0),
    ...emit(8, 32),
    ...emit(9, 64),
    ...emit(10, 96),
    ...get(4),
    ...i32Const(128),
    ...i32Add,
    ...set(4),
    ...get(3),
    ...i32Const(1),
    ...i32Sub,
    ...tee(3),
    0x0d,
    0x00,
    0x0b, // end groups
    0x0b, // end block
    0x0b, // end function
  ];
  const locals = [0x02, 0x02, i32, 0x09, v128];
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

export type NibbleTableScan = (tables: number, codes: number, quads: number, groups: number, output: number) => void;

let compiled: WasmModule | null | undefined;

/** The compiled kernel, or `null` when this runtime has no WebAssembly SIMD. Compiled once. */
export function nibbleTableKernel(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = nibbleTableKernelBytes();
    compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

/** Wires the kernel to a memory; undefined when there is no kernel. */
export function instantiateNibbleTableKernel(memory: WasmMemory): NibbleTableScan | undefined {
  const kernel = nibbleTableKernel();
  if (kernel === null || wasm === undefined) return undefined;
  const instance = new wasm.Instance(kernel, { env: { memory } });
  return instance.exports["scan"] as NibbleTableScan;
}
