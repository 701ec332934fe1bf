import { wasm } from "./int8-dot-kernel.js";
import type { WasmMemory, WasmModule } from "./int8-dot-kernel.js";
import {
  i32,
  i32Const,
  kernelModule,
  localGet,
  localSet,
  localTee,
  memoryLimits,
  simdOperation,
  unsignedLeb,
  v128,
  v128Splat,
} from "./wasm-bytes.js";

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
  const body = [
    ...[...v128Splat(0x0f), ...localSet(mask)],
    0x02,
    0x40, // block
    ...localGet(groups),
    0x45,
    0x0d,
    0x00, // groups == 0: done
    0x03,
    0x40, // loop over groups
    ...startGroup,
    0x03,
    0x40, // loop over quads
    ...[...nibble(0), ...nibble(1), ...nibble(2), ...nibble(3)],
    ...accumulateQuad,
    ...nextQuad,
    0x0d,
    0x00,
    0x0b, // end quads
    ...[...emit(rows0To7, 0), ...emit(rows8To15, 32), ...emit(rows16To23, 64), ...emit(rows24To31, 96)],
    ...nextGroup,
    0x0d,
    0x00,
    0x0b, // end groups
    0x0b, // end block
    0x0b, // end function
  ];
  return kernelModule(
    { parameters: [i32, i32, i32, i32, i32], results: [], exportName: "scan", locals: [0x02, 0x02, i32, 0x09, v128], body },
    memoryLimits(false),
  );
}

// The indices of the function's parameters: tables, codes, quads, groups, output (i32).
// Then of its locals: the quad counter, the tables cursor (i32); the int16 sums of rows 0-7,
// 8-15, 16-23, 24-31; the int8 sums of a quad for rows 0-15 and 16-31; the nibble's codes;
// its table; the mask 0x0f (v128).
const [tables, codes, quads, groups, output] = [0, 1, 2, 3, 4];
const [quadCounter, tablesCursor, rows0To7, rows8To15, rows16To23, rows24To31] = [5, 6, 7, 8, 9, 10];
const [quadLow, quadHigh, nibbleCodes, nibbleTable, mask] = [11, 12, 13, 14, 15];

const i32Add = [0x6a];
const i32Sub = [0x6b];
const load = (offset: number) => [0xfd, 0x00, 0x00, ...unsignedLeb(offset)];
const store = (offset: number) => [0xfd, 0x0b, 0x00, ...unsignedLeb(offset)];
const and = simdOperation(0x4e);
const swizzle = simdOperation(0x0e);
const add8 = simdOperation(0x6e);
const shiftRight16 = simdOperation(0x8d);
const add16 = simdOperation(0x8e);
const widenLow8 = simdOperation(0x87);
const widenHigh8 = simdOperation(0x88);
const widenLow16 = simdOperation(0xa7);
const widenHigh16 = simdOperation(0xa8);

/** A group's start: its int16 sums at zero, the tables cursor at the first table, every quad to go. */
const startGroup = [
  ...[rows0To7, rows8To15, rows16To23, rows24To31].flatMap((local) => [...v128Splat(0), ...localSet(local)]),
  ...[...localGet(tables), ...localSet(tablesCursor)],
  ...[...localGet(quads), ...localSet(quadCounter)],
];

/** Nibble `k` of the quad: the table looked up with the low and the high halves of its codes, added to the quad's int8 sums (set by the first). */
const nibble = (k: number) => [
  ...[...localGet(tablesCursor), ...load(16 * k), ...localTee(nibbleTable)],
  ...[...localGet(codes), ...load(16 * k), ...localTee(nibbleCodes), ...localGet(mask), ...and, ...swizzle],
  ...(k === 0 ? [] : [...localGet(quadLow), ...add8]),
  ...localSet(quadLow),
  ...localGet(nibbleTable),
  ...[...localGet(nibbleCodes), ...i32Const(4), ...shiftRight16, ...localGet(mask), ...and, ...swizzle],
  ...(k === 0 ? [] : [...localGet(quadHigh), ...add8]),
  ...localSet(quadHigh),
];

/** The int16 sums `local` plus the `widen`ed half of the int8 sums `sum`. */
const accumulate = (local: number, sum: number, widen: number[]) => [
  ...[...localGet(local), ...localGet(sum), ...widen, ...add16, ...localSet(local)],
];

/** The quad's int8 sums into the group's int16 sums. */
const accumulateQuad = [
  ...accumulate(rows0To7, quadLow, widenLow8),
  ...accumulate(rows8To15, quadLow, widenHigh8),
  ...accumulate(rows16To23, quadHigh, widenLow8),
  ...accumulate(rows24To31, quadHigh, widenHigh8),
];

/** On to the next quad (64 bytes of codes and of tables); leaves the quads still to go. */
const nextQuad = [
  ...[...localGet(codes), ...i32Const(64), ...i32Add, ...localSet(codes)],
  ...[...localGet(tablesCursor), ...i32Const(64), ...i32Add, ...localSet(tablesCursor)],
  ...[...localGet(quadCounter), ...i32Const(1), ...i32Sub, ...localTee(quadCounter)],
];

/** The eight int16 sums `local`, widened to int32, stored from `output + offset`. */
const emit = (local: number, offset: number) => [
  ...[...localGet(output), ...localGet(local), ...widenLow16, ...store(offset)],
  ...[...localGet(output), ...localGet(local), ...widenHigh16, ...store(offset + 16)],
];

/** On to the next group's output (32 int32); leaves the groups still to go. */
const nextGroup = [
  ...[...localGet(output), ...i32Const(128), ...i32Add, ...localSet(output)],
  ...[...localGet(groups), ...i32Const(1), ...i32Sub, ...localTee(groups)],
];

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
