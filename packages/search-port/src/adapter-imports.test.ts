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
