import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReadAhead } from "./read-ahead.js";

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "read-ahead-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("issue 14: files are read ahead of the parse", () => {
  it("gives each file's bytes in order, reports a failed read only when that file is asked for, and skips files not to be read", async () => {
    const paths: Array<string | undefined> = [];
    for (let index = 0; index < 20; index += 1) {
      if (index === 5) {
        paths.push(join(folder, "missing.md"));
        continue;
      }
      if (index === 7) {
        paths.push(undefined);
        continue;
      }
      const path = join(folder, `${index}.md`);
      await writeFile(path, `file ${index}`);
      paths.push(path);
    }
    const reads = new ReadAhead(paths, 4, 1024);
    const texts: string[] = [];
    for (let index = 0; index < 20; index += 1) {
      if (index === 7) continue;
      if (index === 5) {
        // The missing file was read ahead and failed then; the failure comes with its turn.
        await expect(reads.read(index)).rejects.toMatchObject({ code: "ENOENT" });
        continue;
      }
      texts.push((await reads.read(index)).toString("utf8"));
    }
    expect(texts).toEqual(Array.from({ length: 20 }, (_, index) => `file ${index}`).filter((_, index) => index !== 5 && index !== 7));
    await expect(reads.read(7)).rejects.toThrow("file 7 is not to be read");
  });

  it("holds no more than the byte limit read ahead: a file that does not fit is read when its turn comes", async () => {
    const sizes = [1000, 1000, 1000, 1000, 8000, 1000, 1000];
    const paths = [];
    for (const [index, size] of sizes.entries()) {
      const path = join(folder, `${index}.md`);
      await writeFile(path, String(index).repeat(size));
      paths.push(path);
    }
    const reads = new ReadAhead(paths, 4, 2500);
    const started = (reads as unknown as { started: Map<number, Promise<unknown>> }).started;
    const settled = () => Promise.allSettled([...started.values()]);
    const texts: string[] = [];
    for (let index = 0; index < sizes.length; index += 1) {
      texts.push((await reads.read(index)).toString("utf8"));
      await settled();
      // However the reads interleave, what is held ahead fits the limit.
      expect(reads.heldBytes).toBeLessThanOrEqual(2500);
    }
    expect(texts).toEqual(sizes.map((size, index) => String(index).repeat(size)));
    expect(reads.heldBytes).toBe(0);
  });

  it("reads nothing ahead with a limit below every file, and still gives every file", async () => {
    const paths = [];
    for (let index = 0; index < 5; index += 1) {
      const path = join(folder, `${index}.md`);
      await writeFile(path, "x".repeat(4096));
      paths.push(path);
    }
    const reads = new ReadAhead(paths, 8, 1024);
    const started = (reads as unknown as { started: Map<number, Promise<unknown>> }).started;
    for (let index = 0; index < 5; index += 1) {
      expect((await reads.read(index)).length).toBe(4096);
      await Promise.allSettled([...started.values()]);
      expect(reads.heldBytes).toBe(0);
    }
  });
});
