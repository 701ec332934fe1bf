/** Helpers to assemble WebAssembly modules byte by byte (the kernels ship as code, not binaries). */

/** A module section: its id, its length (unsigned LEB128) and its content. */
export function section(id: number, content: number[]): number[] {
  return [id, ...unsignedLeb(content.length), ...content];
}

/** `value` as unsigned LEB128. */
export function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0);
  return bytes;
}

/** `value` (an int32) as signed LEB128. */
export function signedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
}

/** A name (import, export) as its length and its bytes. */
export function wasmName(text: string): number[] {
  return [text.length, ...Array.from(text, (character) => character.charCodeAt(0))];
}

/** Value types. */
export const i32 = 0x7f;
export const f64 = 0x7c;
export const v128 = 0x7b;

/** `local.get`, `local.set` and `local.tee` of local `index` (below 128). */
export const localGet = (index: number): number[] => [0x20, index];
export const localSet = (index: number): number[] => [0x21, index];
export const localTee = (index: number): number[] => [0x22, index];

/** `i32.const value`. */
export const i32Const = (value: number): number[] => [0x41, ...signedLeb(value)];

/**
 * `while (counter < count) { body; counter += 1 }`, both i32 locals compared unsigned: a block
 * and a loop, the body inside the loop (a `br 1` in it leaves, a `br 0` goes round again).
 */
export function countedLoop(counter: number, count: number, body: readonly number[]): number[] {
  return [
    0x02,
    0x40, // block $done
    0x03,
    0x40, // loop $next
    ...localGet(counter),
    ...localGet(count),
    0x4f, // i32.ge_u
    0x0d,
    0x01, // counter >= count: done
    ...body,
    ...localGet(counter),
    ...i32Const(1),
    0x6a, // i32.add
    ...localSet(counter),
    0x0c,
    0x00, // br $next
    0x0b, // end loop
    0x0b, // end block
  ];
}

/** The address of element `index` (an i32 local) of the array at `start` (an i32 local), of 2^`shift` bytes each. */
export const elementAddress = (start: number, index: number, shift: number): number[] => [
  ...localGet(start),
  ...localGet(index),
  ...i32Const(shift),
  0x74, // i32.shl
  0x6a, // i32.add
];

/** A SIMD128 instruction: the prefix 0xfd and its opcode (unsigned LEB128). */
export const simdOperation = (code: number): number[] => [0xfd, ...unsignedLeb(code)];

/** `v128.const` with each of its 16 bytes `byte`. */
export const v128Splat = (byte: number): number[] => [...simdOperation(0x0c), ...new Array<number>(16).fill(byte)];

/** The limits of an imported memory: one page at least; a shared one must also declare a maximum, 65,536 pages (4 GiB). */
export function memoryLimits(shared: boolean): number[] {
  return shared ? [0x03, 0x01, ...unsignedLeb(65_536)] : [0x00, 0x01];
}

/** The one function of a kernel module: its signature, its export name, its locals (declared as runs) and its body. */
export interface KernelFunction {
  parameters: number[];
  results: number[];
  exportName: string;
  /** The local declarations: the number of runs, then a count and a type per run. */
  locals: number[];
  /** The instructions, up to the function's `end` included. */
  body: number[];
}

/**
 * A module of one function, exported by name, that imports its memory as `env.memory` with
 * the limits `memory` (`memoryLimits`): the header, then the type, import, function, export
 * and code sections.
 */
export function kernelModule(kernel: KernelFunction, memory: number[]): Uint8Array<ArrayBuffer> {
  const { parameters, results, exportName, locals, body } = kernel;
  const functionBody = [...locals, ...body];
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [0x01, 0x60, parameters.length, ...parameters, results.length, ...results]),
    ...section(2, [0x01, ...wasmName("env"), ...wasmName("memory"), 0x02, ...memory]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...wasmName(exportName), 0x00, 0x00]),
    ...section(10, [0x01, ...unsignedLeb(functionBody.length), ...functionBody]),
  ];
  return Uint8Array.from(bytes);
}
