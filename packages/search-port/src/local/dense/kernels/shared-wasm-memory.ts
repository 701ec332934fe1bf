import { wasm } from "./int8-dot-kernel.js";
import type { WasmMemory } from "./int8-dot-kernel.js";

/** A shared WebAssembly memory of `pages` pages, or undefined where the runtime has none (or refuses one). */
export function sharedWasmMemory(pages: number): WasmMemory | undefined {
  if (wasm === undefined || typeof SharedArrayBuffer === "undefined" || typeof Atomics === "undefined") return undefined;
  try {
    const memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
    return memory.buffer instanceof SharedArrayBuffer ? memory : undefined;
  } catch {
    return undefined;
  }
}
