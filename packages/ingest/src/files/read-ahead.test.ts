import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReadAhead } from "./read-ahead.js";

// The real file system, watched: the abort tests count the reads and can hold some back.
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return { ...actual, readFile: vi.fn(actual.readFile), stat: vi.fn(actual.stat) };
});

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

describe("a read-ahead honours its abort signal", () => {
  const readFileMock = vi.mocked(readFile);
  beforeEach(() => {
    readFileMock.mockClear();
  });
  afterEach(() => {
    readFileMock.mockReset();
  });

  async function files(count: number): Promise<string[]> {
    const paths = [];
    for (let index = 0; index < count; index += 1) {
      const path = join(folder, `${index}.md`);
      await writeFile(path, `file ${index}`);
      paths.push(path);
    }
    return paths;
  }

  /** Collects the unhandled rejections while `run` runs, and for a few turns of the event loop after. */
  async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      await run();
      for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("unhandledRejection", listener);
    }
    return unhandled;
  }

  it("after abort, a read rejects at once with the signal's reason, reads nothing more, and holds nothing", async () => {
    const paths = await files(10);
    const controller = new AbortController();
    const reads = new ReadAhead(paths, 4, 1024, controller.signal);
    const started = (reads as unknown as { started: Map<number, Promise<unknown>> }).started;
    expect((await reads.read(0)).toString("utf8")).toBe("file 0");
    await Promise.allSettled([...started.values()]);
    expect(reads.heldBytes).toBe("file 1".length * 4);

    const reason = new Error("stopped by the user");
    controller.abort(reason);
    expect(reads.heldBytes).toBe(0);
    const callsBefore = readFileMock.mock.calls.length;
    // File 1 was read ahead, but is not given after the abort; nothing after it is read.
    await expect(reads.read(1)).rejects.toBe(reason);
    await expect(reads.read(5)).rejects.toBe(reason);
    expect(started.size).toBe(0);
    expect(readFileMock.mock.calls.length).toBe(callsBefore);
    expect(reads.heldBytes).toBe(0);
  });

  it("an abort while reads are on their way rejects the read asked for with the reason, starts no read ahead and leaves no unhandled rejection", async () => {
    const paths = await files(10);
    const controller = new AbortController();
    const reason = new Error("stopped by the user");
    const reads = new ReadAhead(paths, 4, 1024, controller.signal);
    const started = (reads as unknown as { started: Map<number, Promise<unknown>> }).started;
    const unhandled = await unhandledDuring(async () => {
      const first = reads.read(0);
      const ahead = [...started.values()];
      expect(ahead).toHaveLength(4);
      // The files after it are being sized; none is read yet when the signal aborts.
      controller.abort(reason);
      await expect(first).rejects.toBe(reason);
      await Promise.allSettled(ahead);
    });
    expect(unhandled).toEqual([]);
    // The read asked for may or may not have reached the disk before the abort (on a loaded
    // machine its size check can still be on its way); no file after it is ever read.
    expect(readFileMock.mock.calls.map(([path]) => path).filter((path) => path !== paths[0])).toEqual([]);
    expect(reads.heldBytes).toBe(0);
    await expect(reads.read(1)).rejects.toBe(reason);
  });

  it("files being read ahead when the signal aborts are let go: the read asked for rejects without waiting for the disk, no unhandled rejection when the disk fails later, no bytes held", async () => {
    const paths = await files(10);
    const controller = new AbortController();
    const reason = new Error("stopped by the user");
    // A slow disk that does not heed the signal: the files after the first answer only when told to.
    const held: Array<{ reading: Promise<Buffer>; fail: (error: Error) => void }> = [];
    const actualReadFile = readFileMock.getMockImplementation() as (path: string) => Promise<Buffer>;
    readFileMock.mockImplementation(((path: string) => {
      if (path === paths[0]) return actualReadFile(path);
      let fail: (error: Error) => void = () => undefined;
      const reading = new Promise<Buffer>((_, reject) => {
        fail = reject;
      });
      held.push({ reading, fail });
      return reading;
    }) as typeof readFile);
    const reads = new ReadAhead(paths, 4, 1024, controller.signal);
    const unhandled = await unhandledDuring(async () => {
      expect((await reads.read(0)).toString("utf8")).toBe("file 0");
      await vi.waitFor(() => expect(held).toHaveLength(4));
      expect(reads.heldBytes).toBe("file 1".length * 4);
      const second = reads.read(1);
      controller.abort(reason);
      await expect(second).rejects.toBe(reason);
      expect(reads.heldBytes).toBe(0);
      for (const { fail } of held) fail(new Error("the disk failed"));
      await Promise.allSettled(held.map(({ reading }) => reading));
    });
    expect(unhandled).toEqual([]);
    expect(reads.heldBytes).toBe(0);
  });

  it("close lets go of the files read ahead and of the signal", async () => {
    const paths = await files(6);
    const controller = new AbortController();
    const reads = new ReadAhead(paths, 4, 1024, controller.signal);
    const started = (reads as unknown as { started: Map<number, Promise<unknown>> }).started;
    await reads.read(0);
    await Promise.allSettled([...started.values()]);
    expect(reads.heldBytes).toBeGreaterThan(0);
    reads.close();
    expect(reads.heldBytes).toBe(0);
    expect(started.size).toBe(0);
  });
});
