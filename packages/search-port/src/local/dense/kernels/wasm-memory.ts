import { wasm } from "./int8-dot-kernel.js";
import type { WasmMemory } from "./int8-dot-kernel.js";

/**
 * A WebAssembly memory of `pages` pages (64 KiB each), or undefined where the runtime has no
 * WebAssembly or refuses one: a process short of address space (under `ulimit -v`, Node 20 may
 * get a single WebAssembly memory) throws `RangeError: WebAssembly.Memory(): could not allocate
 * memory`. Every kernel has a JavaScript loop giving the same values, which then runs instead:
 * a search is slower, never failed, for want of a kernel's memory.
 */
export function wasmMemory(pages: number): WasmMemory | undefined {
  if (wasm === undefined) return undefined;
  try {
    return new wasm.Memory({ initial: pages });
  } catch {
    return undefined;
  }
}
