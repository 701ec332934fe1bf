import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { random } from "../test/seeded-random-test-fixtures.js";
import { HashedFileWriter } from "./hashed-file-writer.js";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "hashed-file-writer-"));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe("HashedFileWriter (issue 36 item 4: a full buffer is written while the next one fills)", () => {
  it("writes pieces of every size, the caller's arrays reused after each write, in order, with their SHA-256", async () => {
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
    expect(written.length).toBe(whole.length);
    expect(written.equals(whole)).toBe(true);
    expect(entry).toEqual({ name: "data.bin", bytes: whole.length, sha256: createHash("sha256").update(whole).digest("hex") });
    expect(created).toEqual(["data.bin"]);
  });
});
