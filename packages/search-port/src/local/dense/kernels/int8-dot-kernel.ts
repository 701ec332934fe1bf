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
 * A tiny WebAssembly module (SIMD128) that computes, for `count` int8 vectors of `blocks`
 * 16-byte blocks each, the dot product with one int16 query vector:
 *
 *     scan(queryPointer, vectorsPointer, blocks, count, outputPointer)
 *
 * The query holds `blocks * 16` int16 values at `queryPointer`; the vectors lie back to
 * back at `vectorsPointer`; one int32 per vector is written from `outputPointer`. Each
 * 16-byte block is sign-extended to two int16x8 halves and multiplied with
 * `i32x4.dot_i16x8_s`, so 16 products cost a handful of instructions. The module imports
 * its memory as `env.memory`. It is assembled here, byte by byte, so the package ships no
 * binary and needs no toolchain; `dense-matrix.test.ts` checks it against plain JS.
 * With `shared`, the imported memory is a shared one (up to 4 GiB), so a worker thread can
 * scan rows of the same memory (`dense-scan-helper.ts`).
 */
export function int8DotKernelBytes(options: { shared?: boolean } = {}): Uint8Array<ArrayBuffer> {
  const body = [
    0x02,
    0x40, // block
    ...localGet(count),
    0x45,
    0x0d,
    0x00, // count == 0: done
    0x03,
    0x40, // loop over vectors
    ...startVector,
    0x03,
    0x40, // loop over blocks
    ...blockProducts,
    ...nextBlock,
    0x0d,
    0x00,
    0x0b, // end blocks
    ...storeDot,
    ...nextVector,
    0x0d,
    0x00,
    0x0b, // end vectors
    0x0b, // end block
    0x0b, // end function
  ];
  return kernelModule(
    { parameters: [i32, i32, i32, i32, i32], results: [], exportName: "scan", locals: [0x02, 0x02, i32, 0x02, v128], body },
    memoryLimits(options.shared === true),
  );
}

// The indices of the function's parameters: query, vectors, blocks, count, output (i32).
// Then of its locals: block counter, query cursor (i32); accumulator, current block (v128).
const [query, vectors, blocks, count, output] = [0, 1, 2, 3, 4];
const [blockCounter, queryCursor, accumulator, block] = [5, 6, 7, 8];

const i32Add = [0x6a];
const i32Sub = [0x6b];
const v128Load = (offset: number) => [0xfd, 0x00, 0x00, ...unsignedLeb(offset)];
const extendLow = simdOperation(0x87);
const extendHigh = simdOperation(0x88);
const dot = simdOperation(0xba);
const add = simdOperation(0xae);
const lane = (index: number) => [...simdOperation(0x1b), index];

/** A vector's start: the accumulator at zero, the query cursor at the query, every block to go. */
const startVector = [
  ...[...v128Splat(0), ...localSet(accumulator)],
  ...[...localGet(query), ...localSet(queryCursor)],
  ...[...localGet(blocks), ...localSet(blockCounter)],
];

/** One 16-byte block, sign-extended to two int16x8 halves, dotted with its 16 query values into the accumulator. */
const blockProducts = [
  ...[...localGet(vectors), ...v128Load(0), ...localSet(block)],
  ...localGet(accumulator),
  ...[...localGet(block), ...extendLow, ...localGet(queryCursor), ...v128Load(0), ...dot, ...add],
  ...[...localGet(block), ...extendHigh, ...localGet(queryCursor), ...v128Load(16), ...dot, ...add],
  ...localSet(accumulator),
];

/** On to the next block (16 bytes of the vector, 32 of the query); leaves the blocks still to go. */
const nextBlock = [
  ...[...localGet(vectors), ...i32Const(16), ...i32Add, ...localSet(vectors)],
  ...[...localGet(queryCursor), ...i32Const(32), ...i32Add, ...localSet(queryCursor)],
  ...[...localGet(blockCounter), ...i32Const(1), ...i32Sub, ...localTee(blockCounter)],
];

/** The accumulator's four lanes summed, stored as the vector's int32 at `output`. */
const storeDot = [
  ...localGet(output),
  ...[...localGet(accumulator), ...lane(0)],
  ...[...localGet(accumulator), ...lane(1), ...i32Add],
  ...[...localGet(accumulator), ...lane(2), ...i32Add],
  ...[...localGet(accumulator), ...lane(3), ...i32Add],
  0x36,
  0x02,
  0x00, // i32.store
];

/** On to the next vector's output; leaves the vectors still to go. */
const nextVector = [
  ...[...localGet(output), ...i32Const(4), ...i32Add, ...localSet(output)],
  ...[...localGet(count), ...i32Const(1), ...i32Sub, ...localTee(count)],
];

export type Int8DotScan = (query: number, vectors: number, blocks: number, count: number, output: number) => void;

/** The part of the WebAssembly JS API used here (the compiler's lib has no WebAssembly types). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
export interface WasmModule {
  readonly kind?: "module";
}
interface WasmApi {
  validate(bytes: Uint8Array<ArrayBuffer>): boolean;
  Module: new (bytes: Uint8Array<ArrayBuffer>) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
}

/** The runtime's WebAssembly API, or undefined where there is none. */
export const wasm: WasmApi | undefined = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

const compiled = new Map<boolean, WasmModule | null>();

/**
 * The compiled kernel (for a shared memory with `shared`), or `null` when this runtime has
 * no WebAssembly SIMD (or no shared memories). Compiled once each.
 */
export function int8DotKernel(options: { shared?: boolean } = {}): WasmModule | null {
  const shared = options.shared === true;
  const known = compiled.get(shared);
  if (known !== undefined) return known;
  let kernel: WasmModule | null;
  try {
    const bytes = int8DotKernelBytes({ shared });
    kernel = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  } catch {
    kernel = null;
  }
  compiled.set(shared, kernel);
  return kernel;
}

/** Wires the kernel to a memory (a shared one with `shared`); undefined when there is no kernel. */
export function instantiateInt8DotKernel(memory: WasmMemory, options: { shared?: boolean } = {}): Int8DotScan | undefined {
  const kernel = int8DotKernel(options);
  if (kernel === null || wasm === undefined) return undefined;
  const instance = new wasm.Instance(kernel, { env: { memory } });
  return instance.exports["scan"] as Int8DotScan;
}
