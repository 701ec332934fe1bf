import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  deepImports,
  listWorkspaces,
  packageLayers,
  sidewaysPackageImports,
  upwardImports,
  workspaceImports,
  type WorkspaceImport,
} from "./test/workspace-imports.js";

// The fitness test of the layers (ARCHITECTURE.md, "Imports only point down"): packages import
// no app; apps/agent-tool (the library) imports no app; apps/mcp-server imports only the
// library; apps/eval does not import apps/cli; and one workspace reaches another only through
// its package name and the subpaths of its exports map, never by a path into its folder.

const root = fileURLToPath(new URL("../../../", import.meta.url));
const workspaces = listWorkspaces(root);
const edges = workspaceImports(root, workspaces);
const shown = (found: WorkspaceImport[]): string[] => found.map((edge) => `${edge.where}: ${edge.specifier} (${edge.from} -> ${edge.to})`);

describe("import direction", () => {
  it("sees the workspaces and the edges between them (so the checks below are not empty)", () => {
    expect(workspaces.map((workspace) => workspace.folder)).toEqual(
      expect.arrayContaining([
        "packages/core",
        "packages/search-port",
        "apps/agent-tool",
        "apps/eval",
        "apps/cli",
        "tooling/vitest-config",
      ]),
    );
    const pairs = new Set(edges.map((edge) => `${edge.from} -> ${edge.to}`));
    for (const pair of [
      "apps/cli -> apps/agent-tool",
      "apps/eval -> apps/agent-tool",
      "apps/agent-tool -> packages/core",
      "packages/search-port -> packages/core",
    ]) {
      expect(pairs).toContain(pair);
    }
  });

  it("no package imports an app, the library imports neither the CLI nor eval, and eval does not import the CLI", () => {
    expect(shown(upwardImports(edges))).toEqual([]);
  });

  it("a package imports only packages of a lower layer, so core is at the bottom and packages form no cycle", () => {
    expect(shown(sidewaysPackageImports(edges))).toEqual([]);
    const packages = workspaces.map((workspace) => workspace.folder).filter((folder) => folder.startsWith("packages/"));
    expect(packages.filter((folder) => packageLayers[folder] === undefined)).toEqual([]);
    const made = (from: string, to: string): WorkspaceImport => ({
      from,
      to,
      where: `${from}/src/x.ts:1`,
      specifier: "x",
      relativePath: false,
    });
    expect(sidewaysPackageImports([made("packages/core", "packages/search-port")])).toHaveLength(1);
    expect(sidewaysPackageImports([made("packages/trace-store", "packages/l0-hints")])).toHaveLength(1);
    expect(sidewaysPackageImports([made("packages/new-one", "packages/core")])).toHaveLength(1);
    expect(sidewaysPackageImports([made("packages/ingest", "packages/search-port")])).toEqual([]);
  });

  it("a workspace reaches another only through its package name and exports map (apps/cli uses agent-tool's public entries)", () => {
    expect(shown(deepImports(edges, workspaces))).toEqual([]);
    const cliEntries = new Set(
      edges
        .filter((edge) => edge.from === "apps/cli" && edge.to === "apps/agent-tool" && !edge.where.endsWith("package.json"))
        .map((edge) => edge.specifier),
    );
    expect([...cliEntries].sort()).toEqual(
      expect.arrayContaining([
        "@lookup-knowledge/agent-tool/evaluation",
        "@lookup-knowledge/agent-tool/format",
        "@lookup-knowledge/agent-tool/local",
        "@lookup-knowledge/agent-tool/stores",
      ]),
    );
  });

  it("refuses each upward direction and each deep path (the rules, on made-up edges)", () => {
    const edge = (from: string, to: string, specifier: string, relativePath = false): WorkspaceImport => ({
      from,
      to,
      where: `${from}/src/x.ts:1`,
      specifier,
      relativePath,
    });
    const upward = [
      edge("packages/core", "apps/agent-tool", "@lookup-knowledge/agent-tool"),
      edge("packages/trace-store", "apps/cli", "@lookup-knowledge/cli"),
      edge("apps/agent-tool", "apps/cli", "@lookup-knowledge/cli"),
      edge("apps/agent-tool", "apps/eval", "@lookup-knowledge/eval"),
      edge("apps/eval", "apps/cli", "@lookup-knowledge/cli"),
      edge("apps/agent-tool", "apps/mcp-server", "@lookup-knowledge/mcp-server"),
      edge("apps/mcp-server", "apps/cli", "@lookup-knowledge/cli"),
      edge("tooling/vitest-config", "apps/agent-tool", "@lookup-knowledge/agent-tool"),
    ];
    const allowed = [
      edge("apps/cli", "apps/agent-tool", "@lookup-knowledge/agent-tool/stores"),
      edge("apps/eval", "apps/agent-tool", "@lookup-knowledge/agent-tool"),
      edge("apps/agent-tool", "packages/core", "@lookup-knowledge/core"),
    ];
    expect(upwardImports([...upward, ...allowed])).toEqual(upward);
    const deep = [
      edge("apps/cli", "apps/agent-tool", "../../agent-tool/src/open-knowledge-base.js", true),
      edge("apps/cli", "apps/agent-tool", "@lookup-knowledge/agent-tool/src/store-settings.js"),
    ];
    expect(deepImports([...deep, ...allowed], workspaces)).toEqual(deep);
  });
});
