import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const sourceRoot = dirname(fileURLToPath(import.meta.url));

/** The packages a module loads at run time: value imports (not `import type`), followed through relative imports. */
function runtimeImports(entry: string): { packages: Set<string>; files: Set<string> } {
  const packages = new Set<string>();
  const files = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)";/gms)) {
      const specifier = match[1] as string;
      if (specifier.startsWith(".")) visit(join(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier);
    }
  };
  visit(join(sourceRoot, entry));
  return { packages, files };
}

describe("subpath imports", () => {
  it("R13: the port itself loads no vendor SDK: no Pinecone, no LangChain", () => {
    const { packages } = runtimeImports("index.ts");
    expect([...packages].filter((name) => name.includes("pinecone") || name.includes("langchain") || name.includes("libsql"))).toEqual([]);
  });

  it("R13: ./testing (conformance suite, test ports, Pinecone test server) loads no SDK and no test framework", () => {
    const { packages } = runtimeImports("testing/index.ts");
    expect([...packages]).toEqual(expect.arrayContaining(["node:http", "node:assert/strict", "zod"]));
    expect([...packages].filter((name) => /pinecone|langchain|vitest|jest/.test(name))).toEqual([]);
  });

  it("R13: ./pinecone, ./langchain and ./libsql take SDK types only (the clients are loaded when a connection is opened); ./langchain loads nothing of @langchain/community", () => {
    for (const entry of ["pinecone/index.ts", "langchain/index.ts", "langchain/libsql/index.ts"]) {
      const { packages, files } = runtimeImports(entry);
      expect([...packages], entry).toContain("@lookup-knowledge/core");
      expect(
        [...packages].filter(
          (name) => name.startsWith("@pinecone-database") || name.startsWith("@langchain") || name.startsWith("@libsql"),
        ),
        entry,
      ).toEqual([]);
      expect([...files].map((file) => relative(sourceRoot, file)).filter((file) => file.startsWith("local/"))).toEqual([]);
    }
  });

  // Node loads ES modules with require() from 20.19 and 22.12 on.
  const requiresModules = (process.features as { require_module?: boolean }).require_module === true;
  it.runIf(requiresModules)(
    "every subpath of the built package loads with require() as well as import (no top-level await, nothing asynchronous at load)",
    () => {
      const packageRoot = join(sourceRoot, "..");
      for (const subpath of ["", "/testing", "/local", "/pinecone", "/langchain", "/libsql"]) {
        const script = `const m = require("@lookup-knowledge/search-port${subpath}"); process.stdout.write(String(Object.keys(m).length));`;
        const exported = Number(execFileSync(process.execPath, ["-e", script], { cwd: packageRoot, encoding: "utf8" }));
        expect(exported, subpath || ".").toBeGreaterThan(0);
      }
    },
  );
});
