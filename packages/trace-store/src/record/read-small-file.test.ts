import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readSmallFile } from "./read-small-file.js";

describe("readSmallFile", () => {
  const folders: string[] = [];
  const folder = (): string => {
    const made = mkdtempSync(join(tmpdir(), "lk-small-file-"));
    folders.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
  });

  it("reads a regular file of at most maxBytes, and says missing where there is none", () => {
    const path = join(folder(), "key");
    expect(readSmallFile(path, 8)).toEqual({ kind: "missing" });
    writeFileSync(path, "12345678");
    expect(readSmallFile(path, 8)).toEqual({ kind: "text", text: "12345678" });
    writeFileSync(path, "");
    expect(readSmallFile(path, 8)).toEqual({ kind: "text", text: "" });
  });

  it("does not read a longer file whole, nor a folder", () => {
    const path = join(folder(), "key");
    writeFileSync(path, "123456789");
    expect(readSmallFile(path, 8)).toEqual({ kind: "too-large" });
    const inside = join(folder(), "folder");
    mkdirSync(inside);
    expect(readSmallFile(inside, 8)).toEqual({ kind: "not-a-file" });
  });

  it.skipIf(process.platform === "win32")("does not wait on a FIFO in the file's place", () => {
    // Opened blocking, a FIFO with no writer would hang this process for ever.
    const path = join(folder(), "key");
    execFileSync("mkfifo", [path]);
    expect(readSmallFile(path, 8)).toEqual({ kind: "not-a-file" });
  });

  it("throws other errors of the file system", () => {
    const file = join(folder(), "file");
    writeFileSync(file, "x");
    expect(() => readSmallFile(join(file, "key"), 8)).toThrow(/ENOTDIR/);
  });
});
