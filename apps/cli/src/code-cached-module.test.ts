import { chmod, chown, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { createHash } from "node:crypto";
import vm from "node:vm";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dynamicImportName, loadCodeCachedModule } from "./code-cached-module.js";

// What the module under test computes: a function it runs (so the cache holds compiled code), its
// own file name, and a built-in through its own `require`.
const source = (answer: number) =>
  `const { basename } = require("node:path");\nfunction answer() { return ${answer}; }\nmodule.exports = { answer: answer(), file: basename(__filename), later: async () => (await ${dynamicImportName}("node:os")).EOL };\n`;

interface Loaded {
  answer: number;
  file: string;
  later: () => Promise<string>;
}

describe("issue 36 item 5: a CommonJS file loaded under a V8 code cache (the bin's query path)", () => {
  let folder: string;
  let file: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-code-cache-"));
    file = join(folder, "query-path.cjs");
    await writeFile(file, source(42));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("runs from its source without a cache, writes one after the run, and the next load uses it", async () => {
    const first = loadCodeCachedModule(file);
    expect(first.cache).toBe("absent");
    expect(first.exports).toMatchObject({ answer: 42, file: "query-path.cjs" });
    expect(await (first.exports as Loaded).later()).toBe("\n");
    first.saveCache();
    expect(existsSync(`${file}.cache`)).toBe(true);
    const second = loadCodeCachedModule(file);
    expect(second.cache).toBe("used");
    expect(second.exports).toMatchObject({ answer: 42, file: "query-path.cjs" });
  });

  it("a cache of another build of the file (same length) is not used: the new source runs, and the cache is replaced", async () => {
    loadCodeCachedModule(file).saveCache();
    await writeFile(file, source(43));
    const rebuilt = loadCodeCachedModule(file);
    expect(rebuilt.cache).toBe("mismatched");
    expect((rebuilt.exports as Loaded).answer).toBe(43);
    rebuilt.saveCache();
    expect(loadCodeCachedModule(file).cache).toBe("used");
  });

  it("a damaged or truncated cache is not handed to V8: the file runs from its source, and a good cache replaces it", async () => {
    loadCodeCachedModule(file).saveCache();
    const good = await readFile(`${file}.cache`);
    const damaged = Buffer.from(good);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 10) ^ 0xff, damaged.length - 10);
    for (const bad of [damaged, good.subarray(0, good.length - 100), good.subarray(0, 20), Buffer.from("not a cache")]) {
      await writeFile(`${file}.cache`, bad);
      const loaded = loadCodeCachedModule(file);
      expect(loaded.cache).toBe("mismatched");
      expect((loaded.exports as Loaded).answer).toBe(42);
      loaded.saveCache();
      expect(loadCodeCachedModule(file).cache).toBe("used");
    }
  });

  // A cache is code: V8 checks only the source's length, so one made from other code of the same
  // length, under a header made to match (a SHA-256 is no signature), runs that other code.
  const plantCache = async () => {
    const planted = `module.exports = { answer: 66, file: "planted!!!!!!!!", later: 0 };`.padEnd(source(42).length - 1, " ");
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, ${dynamicImportName}) {${planted}\n\n})`, {
      filename: file,
    });
    script.runInThisContext();
    const data = script.createCachedData();
    const sha256 = (bytes: string | Uint8Array) => createHash("sha256").update(bytes).digest();
    await writeFile(`${file}.cache`, Buffer.concat([Buffer.from("LKCODE1\n"), sha256(source(42)), sha256(data), data]));
  };

  it("a cache that others than the source's writers can change (mode 666) is not run, even with a header made to match", async () => {
    await chmod(file, 0o644);
    await plantCache();
    await chmod(`${file}.cache`, 0o666);
    const loaded = loadCodeCachedModule(file);
    expect(loaded.exports).toMatchObject({ answer: 42, file: "query-path.cjs" });
    expect(loaded.cache).toBe("untrusted");
    // Replaced by one of this user's, which no one else can change.
    loaded.saveCache();
    expect((await stat(`${file}.cache`)).mode & 0o022).toBe(0);
    expect(loadCodeCachedModule(file).cache).toBe("used");
  });

  it.skipIf(process.getuid?.() !== 0)("a cache owned by another user than this one and the source's owner is not run", async () => {
    await plantCache();
    await chown(`${file}.cache`, 65534, 65534);
    const loaded = loadCodeCachedModule(file);
    expect(loaded.exports).toMatchObject({ answer: 42, file: "query-path.cjs" });
    expect(loaded.cache).toBe("untrusted");
  });

  it("the cache is written no more writable than 644, whatever the umask", () => {
    const umask = process.umask(0);
    try {
      loadCodeCachedModule(file).saveCache();
    } finally {
      process.umask(umask);
    }
    expect(loadCodeCachedModule(file).cache).toBe("used");
  });

  it("a cache that cannot be written (its folder is gone) leaves the run as it was", async () => {
    const loaded = loadCodeCachedModule(file, join(folder, "missing", "query-path.cjs.cache"));
    expect(() => loaded.saveCache()).not.toThrow();
    expect(loaded.cache).toBe("absent");
  });
});
