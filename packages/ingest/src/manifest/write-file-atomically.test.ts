import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileAtomically } from "./write-file-atomically.js";

describe("writeFileAtomically", () => {
  const folders: string[] = [];
  const folder = (): string => {
    const made = mkdtempSync(join(tmpdir(), "atomic-write-"));
    folders.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
  });

  it("replaces the file with the parts in order, text and bytes, and leaves no temporary file", async () => {
    const directory = folder();
    const path = join(directory, "data.bin");
    writeFileSync(path, "old contents");
    await writeFileAtomically(path, ["head\n", new Uint8Array([0, 1, 2, 255]), "tail"]);
    expect([...readFileSync(path)]).toEqual([...Buffer.from("head\n"), 0, 1, 2, 255, ...Buffer.from("tail")]);
    expect(readdirSync(directory)).toEqual(["data.bin"]);
  });

  it("a write that cannot be renamed into place fails, removes its temporary file and leaves what was there", async () => {
    const directory = folder();
    const path = join(directory, "taken");
    mkdirSync(path);
    writeFileSync(join(path, "inside.txt"), "kept");
    await expect(writeFileAtomically(path, ["new"])).rejects.toThrow();
    expect(readdirSync(directory)).toEqual(["taken"]);
    expect(readFileSync(join(path, "inside.txt"), "utf8")).toBe("kept");
  });
});
