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

  it("reads nothing ahead while the files read ahead hold the byte limit", async () => {
    const paths = [];
    for (let index = 0; index < 6; index += 1) {
      const path = join(folder, `${index}.md`);
      await writeFile(path, "x".repeat(1000));
      paths.push(path);
    }
    const reads = new ReadAhead(paths, 4, 1500);
    await reads.read(0);
    // Files 1 to 4 were started; once two of them are in, the limit holds the rest.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = (reads as unknown as { started: Map<number, unknown> }).started;
    expect([...started.keys()]).toEqual([1, 2, 3, 4]);
    await reads.read(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // 2, 3 and 4 are held (3000 bytes, over the limit): 5 is not started.
    expect([...started.keys()]).toEqual([2, 3, 4]);
    await reads.read(2);
    await reads.read(3);
    expect([...started.keys()]).toEqual([4, 5]);
  });
});
