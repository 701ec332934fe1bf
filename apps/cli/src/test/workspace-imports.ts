import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** A workspace of the repository: `packages/core`, `apps/cli`, `tooling/tsconfig`, ... */
export interface Workspace {
  /** The folder, relative to the repository root, with `/` separators. */
  folder: string;
  name: string;
  /** The subpaths of its `exports` map (`.`, `./local`, ...), or none when it has no map. */
  exportPaths: string[];
}

/** One place where a workspace reaches another: a specifier in a source file, or a package.json dependency. */
export interface WorkspaceImport {
  from: string;
  to: string;
  /** `file:line` or `package.json`. */
  where: string;
  specifier: string;
  /** True for a relative specifier that leaves its own workspace's folder. */
  relativePath: boolean;
}

const workspaceParents = ["packages", "apps", "tooling"];
const skippedFolders = new Set(["node_modules", "dist", ".turbo", "coverage"]);
const sourceFile = /\.(?:[cm]?ts|[cm]?js|tsx|jsx)$/;
// `from "x"`, `import "x"`, `import("x")`, `require("x")`: static, side-effect, dynamic.
const specifierPattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"'\n]+)["']/g;

interface PackageJson {
  name?: string;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readPackageJson(folder: string): PackageJson {
  return JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as PackageJson;
}

/** Every workspace under `packages/`, `apps/` and `tooling/`. */
export function listWorkspaces(root: string): Workspace[] {
  const workspaces: Workspace[] = [];
  for (const parent of workspaceParents) {
    if (!existsSync(join(root, parent))) continue;
    for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
      const folder = join(root, parent, entry.name);
      if (!entry.isDirectory() || !existsSync(join(folder, "package.json"))) continue;
      const manifest = readPackageJson(folder);
      workspaces.push({ folder: `${parent}/${entry.name}`, name: manifest.name ?? "", exportPaths: Object.keys(manifest.exports ?? {}) });
    }
  }
  return workspaces;
}

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skippedFolders.has(entry.name)) files.push(...sourceFiles(join(folder, entry.name)));
    } else if (entry.isFile() && sourceFile.test(entry.name)) {
      files.push(join(folder, entry.name));
    }
  }
  return files;
}

/** The package name of a bare specifier (`@scope/name/sub` -> `@scope/name`), and its subpath (`./sub` or `.`). */
function splitSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split("/");
  const length = specifier.startsWith("@") ? 2 : 1;
  const rest = parts.slice(length).join("/");
  return { name: parts.slice(0, length).join("/"), subpath: rest ? `./${rest}` : "." };
}

/** Every edge from one workspace to another, found in source files (tests, benches and configs too) and package.json files. */
export function workspaceImports(root: string, workspaces: Workspace[]): WorkspaceImport[] {
  const byName = new Map(workspaces.map((workspace) => [workspace.name, workspace]));
  const owner = (file: string): Workspace | undefined =>
    workspaces.find((workspace) => file === resolve(root, workspace.folder) || file.startsWith(resolve(root, workspace.folder) + sep));
  const edges: WorkspaceImport[] = [];
  for (const workspace of workspaces) {
    const manifest = readPackageJson(join(root, workspace.folder));
    const declared = {
      ...manifest.dependencies,
      ...manifest.devDependencies,
      ...manifest.peerDependencies,
      ...manifest.optionalDependencies,
    };
    for (const name of Object.keys(declared)) {
      const target = byName.get(name);
      if (target && target !== workspace)
        edges.push({
          from: workspace.folder,
          to: target.folder,
          where: `${workspace.folder}/package.json`,
          specifier: name,
          relativePath: false,
        });
    }
    for (const file of sourceFiles(join(root, workspace.folder))) {
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, index) => {
        for (const match of line.matchAll(specifierPattern)) {
          const specifier = match[1] as string;
          const relativePath = specifier.startsWith(".");
          const target = relativePath ? owner(resolve(dirname(file), specifier)) : byName.get(splitSpecifier(specifier).name);
          if (!target || target === workspace) continue;
          edges.push({
            from: workspace.folder,
            to: target.folder,
            where: `${relative(root, file).split(sep).join("/")}:${index + 1}`,
            specifier,
            relativePath,
          });
        }
      });
    }
  }
  return edges;
}

/**
 * The layer of each package (`packages/*`): a package imports only packages of a lower layer,
 * so the packages form no cycle and `core` stays at the bottom. A package missing here is
 * refused until it is given a layer.
 */
export const packageLayers: Record<string, number> = {
  "packages/core": 0,
  "packages/text": 1,
  "packages/embeddings": 2,
  "packages/l0-hints": 2,
  "packages/postprocess": 2,
  "packages/search-port": 3,
  "packages/trace-store": 2,
  "packages/ingest": 4,
};

/** The edges between packages that do not point to a lower layer (`packageLayers`). */
export function sidewaysPackageImports(edges: WorkspaceImport[]): WorkspaceImport[] {
  return edges.filter((edge) => {
    if (!edge.from.startsWith("packages/") || !edge.to.startsWith("packages/")) return false;
    const from = packageLayers[edge.from];
    const to = packageLayers[edge.to];
    return from === undefined || to === undefined || to >= from;
  });
}

/** The apps each app may import; a package (`packages/*`) imports no app, and tooling imports none either. */
export const allowedAppImports: Record<string, string[]> = {
  "apps/agent-tool": [],
  "apps/eval": ["apps/agent-tool"],
  "apps/mcp-server": ["apps/agent-tool"],
  "apps/inspector": ["apps/agent-tool"],
  "apps/cli": ["apps/agent-tool", "apps/mcp-server", "apps/inspector"],
};

/** The edges that point up or sideways: into an app that `allowedAppImports` does not give the importer. */
export function upwardImports(edges: WorkspaceImport[]): WorkspaceImport[] {
  return edges.filter((edge) => edge.to.startsWith("apps/") && !(allowedAppImports[edge.from] ?? []).includes(edge.to));
}

/** The edges that do not go through the target's public surface: a relative path into its folder, or a subpath its `exports` map does not name. */
export function deepImports(edges: WorkspaceImport[], workspaces: Workspace[]): WorkspaceImport[] {
  const byFolder = new Map(workspaces.map((workspace) => [workspace.folder, workspace]));
  return edges.filter((edge) => {
    if (edge.relativePath) return true;
    if (edge.where.endsWith("package.json")) return false;
    const exportPaths = byFolder.get(edge.to)?.exportPaths ?? [];
    return exportPaths.length > 0 && !exportPaths.includes(splitSpecifier(edge.specifier).subpath);
  });
}
