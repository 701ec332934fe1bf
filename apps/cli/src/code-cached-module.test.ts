import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
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

  it("a cache that cannot be written (its folder is gone) leaves the run as it was", async () => {
    const loaded = loadCodeCachedModule(file, join(folder, "missing", "query-path.cjs.cache"));
    expect(() => loaded.saveCache()).not.toThrow();
    expect(loaded.cache).toBe("absent");
  });
});
