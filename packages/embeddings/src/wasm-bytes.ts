/**
 * Helpers to assemble a WebAssembly module byte by byte (the kernel ships as code, not a
 * binary, and needs no toolchain). A small copy of what `packages/search-port`'s kernels use:
 * the embeddings package cannot import that sibling package.
 */

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

/** A module section: its id, its length (unsigned LEB128) and its content. */
function section(id: number, content: number[]): number[] {
  return [id, ...unsignedLeb(content.length), ...content];
}

/** A name (import, export) as its length and its bytes. */
function wasmName(text: string): number[] {
  return [text.length, ...Array.from(text, (character) => character.charCodeAt(0))];
}

/** Value types. */
export const i32 = 0x7f;
export const f64 = 0x7c;
export const v128 = 0x7b;

/** `local.get` and `local.set` of local `index` (below 128). */
export const localGet = (index: number): number[] => [0x20, index];
export const localSet = (index: number): number[] => [0x21, index];

/** `i32.const 0` (small non-negative values only: one LEB128 byte). */
export const i32Zero = [0x41, 0x00];

/** `f64.const 0`. */
export const f64Zero = [0x44, 0, 0, 0, 0, 0, 0, 0, 0];

/** Loads and stores, aligned to their size, offset 0. */
export const f64Load = [0x2b, 0x03, 0x00];
export const f64Store = [0x39, 0x03, 0x00];
export const f32Store = [0x38, 0x02, 0x00];
export const i32Load = [0x28, 0x02, 0x00];

/**
 * `counter = 0; while (counter < count) { body; counter += 1 }`, both i32 locals compared
 * unsigned: a block and a loop, the body inside the loop.
 */
export function countedLoop(counter: number, count: number, body: readonly number[]): number[] {
  return [
    ...i32Zero,
    ...localSet(counter),
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
    0x41,
    0x01, // i32.const 1
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
  0x41,
  shift, // i32.const shift
  0x74, // i32.shl
  0x6a, // i32.add
];

/** A function of a module: its signature, its export name, its locals (declared as runs) and its body. */
export interface WasmFunction {
  parameters: number[];
  results: number[];
  exportName: string;
  /** The local declarations: the number of runs, then a count and a type per run. */
  locals: number[];
  /** The instructions, up to the function's `end` included. */
  body: number[];
}

/**
 * A module of `functions`, each exported by its name, that imports a memory of one page at
 * least as `env.memory`: the header, then the type (one per function), import, function,
 * export and code sections.
 */
export function wasmModule(functions: readonly WasmFunction[]): Uint8Array<ArrayBuffer> {
  const types = functions.flatMap(({ parameters, results }) => [0x60, parameters.length, ...parameters, results.length, ...results]);
  const exports = functions.flatMap(({ exportName }, index) => [...wasmName(exportName), 0x00, index]);
  const codes = functions.flatMap(({ locals, body }) => {
    const functionBody = [...locals, ...body];
    return [...unsignedLeb(functionBody.length), ...functionBody];
  });
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [functions.length, ...types]),
    ...section(2, [0x01, ...wasmName("env"), ...wasmName("memory"), 0x02, 0x00, 0x01]),
    ...section(3, [functions.length, ...functions.map((_, index) => index)]),
    ...section(7, [functions.length, ...exports]),
    ...section(10, [functions.length, ...codes]),
  ];
  return Uint8Array.from(bytes);
}
