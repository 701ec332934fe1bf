import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { architectureProblems, documentedEdges, namedFiles } from "./test/architecture-problems.js";
import { listWorkspaces, workspaceImports } from "./test/workspace-imports.js";

// Issue 34: ARCHITECTURE.md is the map a newcomer reads first, so it may not name an import
// edge the code does not have, miss one it has, or name a file that does not exist.

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Production code only: tests, test helpers, benches and scripts do not make a layer edge. */
function isProductionSource(where: string): boolean {
  const file = where.replace(/:\d+$/, "");
  if (file.endsWith("package.json")) return false;
  if (/\.test\.[cm]?[tj]sx?$/.test(file) || /-test-fixtures\.[tj]s$/.test(file)) return false;
  const parts = file.split("/");
  if (parts.includes("test") || parts.includes("bench") || parts.includes("scripts")) return false;
  return parts[2] === "src" || (parts[2] === "web" && parts[3] === "src");
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

const fakeDocument = [
  "The `writer/local-index-writer.ts` and `no-such-file.ts`; the template `apps/cli/src/<name>-command.ts`.",
  "## What imports what",
  "```text",
  "packages/core        -> nothing of ours",
  "packages/text        -> packages/core",
  "apps/agent-tool      -> packages/core, packages/text",
  "```",
].join("\n");

describe("ARCHITECTURE.md", () => {
  it("states exactly the import edges production code has between workspaces, and names only files that exist", () => {
    const markdown = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");
    const edges = actualEdges();
    expect(edges.size).toBeGreaterThan(10);
    expect(namedFiles(markdown).length).toBeGreaterThan(30);
    expect(architectureProblems({ markdown, files: repositoryFiles(), edges })).toEqual([]);
  });

  it("the check reports an edge stated but absent, an edge present but unstated, and a missing file", () => {
    const files = ["packages/search-port/src/local/writer/local-index-writer.ts", "apps/cli/src/main.ts"];
    const edges = new Set(["apps/agent-tool -> packages/core", "apps/agent-tool -> packages/text", "apps/cli -> apps/agent-tool"]);
    expect(documentedEdges(fakeDocument)).toEqual(
      new Set(["packages/text -> packages/core", "apps/agent-tool -> packages/core", "apps/agent-tool -> packages/text"]),
    );
    expect(architectureProblems({ markdown: fakeDocument, files, edges })).toEqual([
      "states packages/text -> packages/core, which no production code has",
      "does not state apps/cli -> apps/agent-tool",
      "names no-such-file.ts, which does not exist",
    ]);
  });

  it("the real code has no edge the layers forbid (the fake edge above is not a real one)", () => {
    expect(actualEdges().has("packages/text -> packages/core")).toBe(false);
  });
});
