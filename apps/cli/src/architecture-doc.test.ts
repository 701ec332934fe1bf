import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { listWorkspaces, workspaceImports } from "./test/workspace-imports.js";

// Issue 34: ARCHITECTURE.md is the map a newcomer reads first, so it may not name an import
// edge the code does not have, miss one it has, or name a file that does not exist.

const root = fileURLToPath(new URL("../../../", import.meta.url));
const architecture = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");

/** Production code only: tests, test helpers, benches and scripts do not make a layer edge. */
function isProductionSource(where: string): boolean {
  const file = where.replace(/:\d+$/, "");
  if (file.endsWith("package.json")) return false;
  if (/\.test\.[cm]?[tj]sx?$/.test(file) || /-test-fixtures\.[tj]s$/.test(file)) return false;
  const parts = file.split("/");
  if (parts.includes("test") || parts.includes("bench") || parts.includes("scripts")) return false;
  return parts[2] === "src" || (parts[2] === "web" && parts[3] === "src");
}

/** The edges the document states, from its "What imports what" block: `from -> to, to`. */
function documentedEdges(): Set<string> {
  const block = /## What imports what[\s\S]*?```text\n([\s\S]*?)```/.exec(architecture)?.[1];
  if (block === undefined) throw new Error('ARCHITECTURE.md has no "What imports what" block');
  const edges = new Set<string>();
  for (const line of block.split("\n")) {
    const match = /^(\S+)\s+->\s+(.*)$/.exec(line.trim());
    if (!match) continue;
    const targets = (match[2] as string).trim();
    if (targets === "nothing of ours") continue;
    for (const target of targets.split(",")) edges.add(`${match[1]} -> ${target.trim()}`);
  }
  return edges;
}

function actualEdges(): Set<string> {
  const workspaces = listWorkspaces(root).filter((workspace) => !workspace.folder.startsWith("tooling/"));
  const edges = workspaceImports(root, workspaces).filter((edge) => isProductionSource(edge.where));
  return new Set(edges.map((edge) => `${edge.from} -> ${edge.to}`));
}

function repositoryFiles(folder = root, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (["node_modules", "dist", ".git", ".turbo", "coverage"].includes(entry.name)) continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...repositoryFiles(join(folder, entry.name), path));
    else files.push(path);
  }
  return files;
}

/** Every `name.ts`-like token in backticks: code, scripts and documents the map points at. */
function namedFiles(): string[] {
  // A template such as `apps/cli/src/<name>-command.ts` names a pattern, not a file.
  const tokens = [...architecture.matchAll(/`([^`\s<>]+\.(?:tsx?|mjs|md))`/g)].map((match) => match[1] as string);
  return [...new Set(tokens)];
}

describe("ARCHITECTURE.md", () => {
  it("states exactly the import edges between workspaces that production code has", () => {
    const documented = documentedEdges();
    const actual = actualEdges();
    expect(actual.size).toBeGreaterThan(10);
    expect(
      [...documented].filter((edge) => !actual.has(edge)),
      "named in ARCHITECTURE.md, not in the code",
    ).toEqual([]);
    expect(
      [...actual].filter((edge) => !documented.has(edge)),
      "in the code, not in ARCHITECTURE.md",
    ).toEqual([]);
  });

  it("names only files that exist (a path by its end, a bare name anywhere in the repository)", () => {
    const files = repositoryFiles();
    const missing = namedFiles().filter((name) =>
      name.includes("/")
        ? !existsSync(join(root, name)) && !files.some((file) => file.endsWith(`/${name}`))
        : !files.some((file) => file.endsWith(`/${name}`) || file === name),
    );
    expect(namedFiles().length).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });

  it("the checks can fail: an invented edge and an invented file are seen", () => {
    expect(actualEdges().has("packages/core -> packages/text")).toBe(false);
    expect(repositoryFiles().some((file) => file.endsWith("/no-such-file-anywhere.ts"))).toBe(false);
  });
});
