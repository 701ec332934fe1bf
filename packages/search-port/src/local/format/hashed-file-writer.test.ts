import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { open } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { random } from "../test/seeded-random-test-fixtures.js";
import { BlockHasher } from "./block-checksums.js";
import { HashedFileWriter } from "./hashed-file-writer.js";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "hashed-file-writer-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(directory, { recursive: true, force: true });
});

describe("HashedFileWriter (issue 36 item 4: a full buffer is written while the next one fills)", () => {
  it.each([["as the disk takes them"], ["when each write of the disk is slow (the next buffer fills, and large pieces come, meanwhile)"]])(
    "writes pieces of every size, the caller's arrays reused after each write, in order, with their SHA-256, %s",
    async (how) => {
      if (how.startsWith("when")) {
        const probe = await open(join(directory, "probe"), "w");
        await probe.close();
        const prototype = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
        const write = prototype.write;
        const delays = random(77);
        vi.spyOn(prototype, "write").mockImplementation(async function (this: unknown, ...args: unknown[]) {
          await new Promise((resolve) => setTimeout(resolve, Math.floor(delays() * 4)));
          return write.apply(this, args);
        });
      }
      const next = random(3612);
      const created: string[] = [];
      const writer = await HashedFileWriter.create(directory, "data.bin", created);
      const expected: Buffer[] = [];
      // One array the caller fills again for each piece, as merges reuse their output buffers.
      const scratch = new Uint8Array(1_500_000);
      for (let piece = 0; piece < 400; piece += 1) {
        const size = next() < 0.05 ? 500_000 + Math.floor(next() * 1_000_000) : Math.floor(next() * 70_000);
        const data = scratch.subarray(0, size);
        for (let at = 0; at < size; at += 1) data[at] = (piece * 31 + at) & 255;
        expected.push(Buffer.from(data));
        await writer.write(data);
      }
      const entry = await writer.finish();
      const whole = Buffer.concat(expected);
      const written = readFileSync(join(directory, "data.bin"));
      vi.restoreAllMocks();
      expect(written.length).toBe(whole.length);
      expect(written.equals(whole)).toBe(true);
      expect(entry).toEqual({ name: "data.bin", bytes: whole.length, sha256: createHash("sha256").update(whole).digest("hex") });
      expect(created).toEqual(["data.bin"]);
    },
  );
});

describe("HashedFileWriter.bufferText (issue 36 item 4: a record's text copied into the buffer, hashed a buffer at a time)", () => {
  it("gives the bytes, size, SHA-256 and block checksums of the same bytes written as pieces, texts and pieces mixed, past full buffers", async () => {
    const next = random(4242);
    const created: string[] = [];
    const writer = await HashedFileWriter.create(directory, "mixed.bin", created);
    const expected: Buffer[] = [];
    let refused = 0;
    const alphabet = ["a", "z", " ", "é", "漢", "😀", "\ud800", "\n"];
    for (let piece = 0; piece < 3000; piece += 1) {
      const length = next() < 0.01 ? 300_000 + Math.floor(next() * 300_000) : Math.floor(next() * 2_000);
      if (next() < 0.7) {
        let text = "";
        for (let at = 0; at < length; at += 1) text += alphabet[Math.floor(next() * alphabet.length)];
        const bytes = Buffer.from(text, "utf8");
        expected.push(bytes);
        if (!writer.bufferText(text)) {
          refused += 1;
          await writer.write(bytes);
        }
      } else {
        const data = Buffer.alloc(length, piece & 255);
        expected.push(data);
        await writer.write(data);
      }
    }
    const entry = await writer.finish();
    const whole = Buffer.concat(expected);
    const written = readFileSync(join(directory, "mixed.bin"));
    expect(written.equals(whole)).toBe(true);
    expect(entry).toEqual({ name: "mixed.bin", bytes: whole.length, sha256: createHash("sha256").update(whole).digest("hex") });
    const blocks = new BlockHasher();
    blocks.update(whole);
    expect(writer.blockChecksums().equals(blocks.digests())).toBe(true);
    // Both ways were taken: texts buffered, and texts refused when the buffer had no room.
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(2100);
  });
});
