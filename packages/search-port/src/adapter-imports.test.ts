import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const sourceRoot = dirname(fileURLToPath(import.meta.url));

/**
 * The adapter folders: each may import the port, `internal/` and core, never another adapter's
 * files. `./libsql` is part of the LangChain adapter (`langchain/libsql/`: it opens a
 * `LibSQLVectorStore` and hands it to `createVectorStoreSearchPort`).
 */
const adapters = ["local", "pinecone", "langchain"];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(sourceRoot, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(folder, name));
}

/** Every relative import (value or type, `import` or `export ... from`, dynamic) of a file, as a path under src. */
function relativeImports(file: string): string[] {
  const source = readFileSync(join(sourceRoot, file), "utf8");
  const specifiers = [
    ...[...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/g)].map((match) => match[1] as string),
    ...[...source.matchAll(/import\(\s*"([^"]+)"\s*\)/g)].map((match) => match[1] as string),
  ];
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => relative(sourceRoot, join(sourceRoot, dirname(file), specifier)));
}

function folderOf(path: string): string {
  return path.split(sep)[0] as string;
}

describe("adapter imports", () => {
  it("no adapter folder imports another adapter folder's files (shared code lives in internal/)", () => {
    const crossings: string[] = [];
    for (const adapter of adapters) {
      for (const file of sourceFiles(adapter)) {
        for (const target of relativeImports(file)) {
          const folder = folderOf(target);
          if (folder === adapter || !adapters.includes(folder)) continue;
          crossings.push(`${file} -> ${target}`);
        }
      }
    }
    expect(crossings).toEqual([]);
  });

  it("the check sees an import: a langchain file importing pinecone/ would be reported", () => {
    const imports = relativeImports(join("langchain", "vector-store-profiles.ts"));
    expect(imports).toContain(join("internal", "to-pinecone-filter.js"));
    expect(imports.map(folderOf)).not.toContain("pinecone");
  });
});

/** The local index's rooms: each folder under `local/` answers one concern; the port's wiring stays at `local/`'s root. */
describe("local index folders", () => {
  const isWiring = (path: string) => path.split(sep).length === 2 && folderOf(path) === "local";
  const productionFiles = (folder: string) => sourceFiles(folder).filter((file) => !file.endsWith(".test.ts"));

  it("no folder inside local/ imports the wiring at local/'s root (the wiring imports the rooms, never the reverse; tests may open the whole port)", () => {
    const upward: string[] = [];
    for (const file of productionFiles("local")) {
      if (isWiring(file) || file.split(sep).includes("test")) continue;
      for (const target of relativeImports(file)) if (isWiring(target)) upward.push(`${file} -> ${target}`);
    }
    expect(upward).toEqual([]);
  });

  it("local/'s root holds the wiring only: at most 15 files that are not tests", () => {
    const root = productionFiles("local").filter(isWiring);
    expect(root.length).toBeLessThanOrEqual(15);
  });

  it("no production file imports a test helper (local/test/ is left out of the build)", () => {
    const intoTests: string[] = [];
    for (const file of productionFiles("local")) {
      if (file.split(sep).includes("test")) continue;
      for (const target of relativeImports(file)) if (target.split(sep).includes("test")) intoTests.push(`${file} -> ${target}`);
    }
    expect(intoTests).toEqual([]);
  });

  it("the check sees an upward import: a test at the root importing a room is fine, a room importing the root is reported", () => {
    const imports = relativeImports(join("local", "open-local-search-port.ts"));
    expect(imports.some((target) => folderOf(target) === "local" && !isWiring(target))).toBe(true);
    expect(isWiring(join("local", "open-local-search-port.js"))).toBe(true);
    expect(isWiring(join("local", "reader", "search-snapshot.js"))).toBe(false);
  });
});
