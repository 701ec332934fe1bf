import { describe, expect, it } from "vitest";
import { BlockHasher, blockMatches, checksumBlockBytes, writtenBlockHash } from "./block-checksums.js";

function digestsOf(hash: "sha256" | "xxh64", data: Uint8Array): Buffer {
  const hasher = new BlockHasher(hash);
  hasher.update(data);
  return hasher.digests();
}

describe("issue 14: block checksums", () => {
  it("writes XXH64 (seed 0, little-endian) and reads format 4's SHA-256, both matching their reference values", () => {
    expect(writtenBlockHash).toBe("xxh64");
    const abc = Buffer.from("abc");
    // Reference values: XXH64("abc", seed 0) from the xxHash test suite, SHA-256("abc") from FIPS 180-2.
    expect(digestsOf("xxh64", abc).toString("hex")).toBe(Buffer.from("44bc2cf5ad770999", "hex").reverse().toString("hex"));
    expect(digestsOf("sha256", abc).toString("hex")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(blockMatches(abc, "xxh64", digestsOf("xxh64", abc))).toBe(true);
    expect(blockMatches(abc, "sha256", digestsOf("sha256", abc))).toBe(true);
  });

  it("tells a block with one changed bit from the one it was made of", () => {
    const block = Buffer.alloc(checksumBlockBytes, 7);
    for (const hash of ["xxh64", "sha256"] as const) {
      const expected = digestsOf(hash, block);
      for (const at of [0, 1000, checksumBlockBytes - 1]) {
        const changed = Buffer.from(block);
        changed[at] = (changed[at] as number) ^ 0x10;
        expect(blockMatches(changed, hash, expected)).toBe(false);
      }
      expect(blockMatches(block, hash, expected)).toBe(true);
      // A checksum of the wrong width never matches.
      expect(blockMatches(block, hash, expected.subarray(0, 4))).toBe(false);
    }
  });
});
