import { section, signedLeb, unsignedLeb, wasmName as name } from "./wasm-bytes.js";

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
 * binary and needs no toolchain; `int8-dot-kernel.test.ts` checks it against plain JS.
 * With `shared`, the imported memory is a shared one (up to 4 GiB), so a worker thread can
 * scan rows of the same memory (`dense-scan-helper.ts`).
 */
export function int8DotKernelBytes(options: { shared?: boolean } = {}): Uint8Array<ArrayBuffer> {
  const i32 = 0x7f;
  const v128 = 0x7b;
  const simd = 0xfd;
  const localGet = (index: number) => [0x20, index];
  const localSet = (index: number) => [0x21, index];
  const localTee = (index: number) => [0x22, index];
  const i32Const = (value: number) => [0x41, ...signedLeb(value)];
  const i32Add = [0x6a];
  const i32Sub = [0x6b];
  const v128Load = (offset: number) => [simd, 0x00, 0x00, ...unsignedLeb(offset)];
  const extendLow = [simd, ...unsignedLeb(0x87)];
  const extendHigh = [simd, ...unsignedLeb(0x88)];
  const dot = [simd, ...unsignedLeb(0xba)];
  const add = [simd, ...unsignedLeb(0xae)];
  const lane = (index: number) => [simd, ...unsignedLeb(0x1b), index];
  // Parameters: 0 query, 1 vectors, 2 blocks, 3 count, 4 output. Locals: 5 block counter,
  // 6 query cursor (i32); 7 accumulator, 8 current block (v128).
  const body = [
    0x02,
    0x40, // block
    ...localGet(3),
    0x45,
    0x0d,
    0x00, // count == 0: done
    0x03,
    0x40, // loop over vectors
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
    ...localGet(8),
    ...extendLow,
    ...localGet(6),
    ...v128Load(0),
    ...dot,
    ...add,
    ...localGet(8),
    ...extendHigh,
    ...localGet(6),
    ...v128Load(16),
    ...dot,
    ...add,
    ...localSet(7),
    ...localGet(1),
    ...i32Const(16),
    ...i32Add,
    ...localSet(1),
    ...localGet(6),
    ...i32Const(32),
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
    0x0b, // end vectors
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
    // Limits: minimum one page; shared memories must also declare a maximum (65536 pages).
    ...section(2, [
      0x01,
      ...name("env"),
      ...name("memory"),
      0x02,
      ...(options.shared === true ? [0x03, 0x01, ...unsignedLeb(65_536)] : [0x00, 0x01]),
    ]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...name("scan"), 0x00, 0x00]),
    ...section(10, [0x01, ...unsignedLeb(functionBody.length), ...functionBody]),
  ];
  return Uint8Array.from(bytes);
}

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
