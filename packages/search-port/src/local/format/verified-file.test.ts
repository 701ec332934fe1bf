import { openSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlockHasher, checksumBlockBytes, checksumBytes } from "./block-checksums.js";
import type { BlockHash } from "./block-checksums.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { random } from "../test/seeded-random-test-fixtures.js";
import { VerifiedFile } from "./verified-file.js";

/** Five and a half checksum blocks of seeded bytes. */
const size = 5 * checksumBlockBytes + checksumBlockBytes / 2;
const bytes = (() => {
  const next = random(11);
  return Uint8Array.from({ length: size }, () => Math.floor(next() * 256));
})();
/** The block checksums of `bytes`, made as a writer makes them. */
function checksumsOf(hash: BlockHash): Buffer {
  const hasher = new BlockHasher(hash);
  // In uneven pieces, as a writer hands them over.
  for (let at = 0; at < bytes.length; at += 50_000) hasher.update(bytes.subarray(at, at + 50_000));
  return hasher.digests();
}

let directory = "";
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "lookup-knowledge-verified-file-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe.each(["sha256", "xxh64"] as const)("issue 14: reads of a data file checked block by block (%s)", (hash) => {
  const checksums = checksumsOf(hash);

  /** A `VerifiedFile` over `content` written to a fresh file, checked against the checksums of `bytes`. */
  function openFile(name: string, content: Uint8Array = bytes): VerifiedFile {
    const path = join(directory, `${hash}-${name}`);
    writeFileSync(path, content);
    return new VerifiedFile(openSync(path, "r"), directory, name, content.length, checksums, hash);
  }

  it("makes one checksum of the right width per block, the same whether the bytes come whole or in pieces", () => {
    expect(checksums.length).toBe(6 * checksumBytes(hash));
    const whole = new BlockHasher(hash);
    whole.update(bytes);
    expect(whole.digests().equals(checksums)).toBe(true);
  });

  it("hands back exactly the file's bytes for reads that start, end and span anywhere, in any order", () => {
    const next = random(5);
    const B = checksumBlockBytes;
    const fixed: Array<[number, number]> = [
      [B, 3 * B], // whole blocks only
      [B + 10, 2 * B], // a partial block at each end
      [0, size], // the whole file, part of it already checked
      [5 * B, size - 5 * B], // the last, short block alone
      [B - 1, 2], // across one boundary
    ];
    for (let round = 0; round < 4; round += 1) {
      const file = openFile(`round-${round}`);
      const reads = [
        ...(round === 0 ? fixed : []),
        ...Array.from({ length: 40 }, (): [number, number] => {
          const position = Math.floor(next() * size);
          return [position, Math.floor(next() * (size - position + 1))];
        }),
      ];
      for (const [position, length] of reads) {
        expect(Buffer.from(file.read(position, length)).equals(Buffer.from(bytes.subarray(position, position + length)))).toBe(true);
      }
      file.close();
    }
  });

  it("refuses a damaged block inside a read, whether the read covers it whole or in part, and still reads the others", () => {
    const damaged = Uint8Array.from(bytes);
    damaged[2 * checksumBlockBytes + 100] = ((damaged[2 * checksumBlockBytes + 100] as number) + 1) % 256;
    for (const [position, length] of [
      [checksumBlockBytes, 3 * checksumBlockBytes], // the damaged block whole, in the middle of the read
      [2 * checksumBlockBytes + 50, 100], // part of the damaged block
      [0, size], // everything
    ] as const) {
      const file = openFile(`damaged-${position}-${length}`, damaged);
      expect(() => file.read(position, length)).toThrow(CorruptIndexError);
      expect(() => file.read(position, length)).toThrow(/does not match its checksum .* at bytes 131072-196608/);
      // The blocks around it are intact and read as usual.
      expect(Buffer.from(file.read(0, 2 * checksumBlockBytes)).equals(Buffer.from(bytes.subarray(0, 2 * checksumBlockBytes)))).toBe(true);
      expect(
        Buffer.from(file.read(3 * checksumBlockBytes, 100)).equals(
          Buffer.from(bytes.subarray(3 * checksumBlockBytes, 3 * checksumBlockBytes + 100)),
        ),
      ).toBe(true);
      file.close();
    }
  });

  it("refuses a read past the end and a file that ends before its checksums say", () => {
    const file = openFile("whole");
    expect(() => file.read(size - 10, 11)).toThrow(/goes past its/);
    file.close();
    const path = join(directory, `${hash}-short`);
    writeFileSync(path, bytes.subarray(0, size - 10));
    const short = new VerifiedFile(openSync(path, "r"), directory, "short", size, checksums, hash);
    expect(() => short.read(4 * checksumBlockBytes, checksumBlockBytes + 100)).toThrow(/ends at byte/);
    short.close();
  });
});
