import { wasm } from "./int8-dot-kernel.js";
import type { WasmMemory } from "./int8-dot-kernel.js";

const pageSize = 65_536;

/** A kernel's memory that can be grown (a WebAssembly memory that is not shared). */
export interface GrowableMemory extends WasmMemory {
  grow(pages: number): number;
}

/**
 * A WebAssembly memory of `pages` pages (64 KiB each), or undefined where the runtime has no
 * WebAssembly or refuses one: a process short of address space (under `ulimit -v`, Node 20 may
 * get a single WebAssembly memory) throws `RangeError: WebAssembly.Memory(): could not allocate
 * memory`. Every kernel has a JavaScript loop giving the same values, which then runs instead:
 * a search is slower, never failed, for want of a kernel's memory.
 */
export function wasmMemory(pages: number): GrowableMemory | undefined {
  if (wasm === undefined) return undefined;
  try {
    return new wasm.Memory({ initial: pages }) as GrowableMemory;
  } catch {
    return undefined;
  }
}

/**
 * Whether `memory` holds `bytes`, grown to them if it must be; false when the runtime refuses
 * to grow it (the same want of address space as `wasmMemory`'s), the memory then as it was.
 */
export function grown(memory: GrowableMemory, bytes: number): boolean {
  if (memory.buffer.byteLength >= bytes) return true;
  try {
    memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / pageSize));
    return true;
  } catch {
    return false;
  }
}
