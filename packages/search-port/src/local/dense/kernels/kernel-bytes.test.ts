import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { denseFuseKernelBytes } from "./dense-fuse-kernel.js";
import { int8DotKernelBytes } from "./int8-dot-kernel.js";
import { lengthNormsKernelBytes } from "../../lexical/length-norms-kernel.js";
import { lexicalSumKernelBytes } from "../../lexical/lexical-sum-kernel.js";
import { nibbleTableKernelBytes } from "./nibble-table-kernel.js";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * The SHA-256 of every kernel's bytes, taken from the emitters before issue 34 split them
 * into named parts: a change to an emitter's code that changes no byte keeps these. A change
 * to a kernel itself updates its hash here, on purpose.
 */
const pinned = [
  ["denseFuseKernelBytes()", () => denseFuseKernelBytes(), 334, "5d86b01a7054922c20049cee92bac77e3eba96223a6b06ea81e0be6b938e9892"],
  [
    "denseFuseKernelBytes({ shared: true })",
    () => denseFuseKernelBytes({ shared: true }),
    337,
    "d80a04d8b63570adcfc261b2141859d4ed3119aebe1874f36c9c91ad7c3db1ce",
  ],
  ["int8DotKernelBytes()", () => int8DotKernelBytes(), 217, "6f89e4576a1b98514be3a6d251db0a38f5d076a7b79a349ea22dd78c5b60469a"],
  [
    "int8DotKernelBytes({ shared: true })",
    () => int8DotKernelBytes({ shared: true }),
    220,
    "a831221a58e99ce1930e3d08950df01a79965be53a5eba58bfd650d7d1ab4367",
  ],
  ["nibbleTableKernelBytes()", () => nibbleTableKernelBytes(), 550, "1970ce0a109728996c9f94c4c431efb899f32059813f446f3888d98497c41513"],
  // Issue 36 item 5's scalar kernels, pinned once their loops came from `countedLoop` (the same bytes as before it).
  ["lexicalSumKernelBytes()", () => lexicalSumKernelBytes(), 166, "8d4648cef311b2ae651c6052228416812c3cbf02dac3ab21d2ba13e5162162eb"],
  ["lengthNormsKernelBytes()", () => lengthNormsKernelBytes(), 119, "d830fd30efe75894c9528075c9b5eb7b9191cfc2e1d47f341f6ab06db42f6216"],
] as const;

describe("issue 34, issue 36 item 5: the WebAssembly kernels' bytes", () => {
  it.each(pinned)("%s emits the pinned bytes (length and SHA-256)", (_, emit, length, hash) => {
    const bytes = emit();
    expect(bytes.length).toBe(length);
    expect(sha256(bytes)).toBe(hash);
  });
});
