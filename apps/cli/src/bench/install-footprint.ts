import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// `pnpm build && pnpm --filter @lookup-knowledge/cli bench:footprint` (issue 35 item 5): what
// installing "the tool for a LangChain agent" costs a user beside LangChain. The workspace
// packages `@lookup-knowledge/agent-tool` needs are packed as published (`pnpm pack`),
// then installed by npm, with `langchain` and `@langchain/core`, into an empty folder; the
// same two alone into another. Both installed sizes are printed (the bytes of every file
// under node_modules), and what the tool adds. Needs the npm registry (npm's cache is kept
// in the system's temporary folder, so a second run is quicker).

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const langchainVersions = { langchain: "1.5.14", "@langchain/core": "1.4.0" };
const entry = "@lookup-knowledge/agent-tool";

/** The folder of each workspace package, by name. */
function workspacePackages(): Map<string, string> {
  const folders = new Map<string, string>();
  for (const group of ["packages", "apps"]) {
    for (const name of readdirSync(join(root, group))) {
      const folder = join(root, group, name);
      try {
        const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { name: string };
        folders.set(manifest.name, folder);
      } catch {
        // not a package
      }
    }
  }
  return folders;
}

/** `name` and the workspace packages it depends on, however deep (dependencies only: what a user installs). */
function workspaceClosure(name: string, folders: Map<string, string>): string[] {
  const seen = new Set<string>();
  const visit = (current: string): void => {
    if (seen.has(current)) return;
    seen.add(current);
    const manifest = JSON.parse(readFileSync(join(folders.get(current) as string, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      if (range.startsWith("workspace:")) visit(dependency);
    }
  };
  visit(name);
  return [...seen];
}

/** The bytes of every file under `folder` (links not followed). */
function folderBytes(folder: string): number {
  let total = 0;
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined) continue;
    total += stats.isDirectory() ? folderBytes(path) : stats.size;
  }
  return total;
}

/** Installs `dependencies` (and `overrides`) into a new folder under `base` with npm; its node_modules' bytes. */
function installedBytes(base: string, label: string, dependencies: Record<string, string>, overrides: Record<string, string> = {}): number {
  const folder = join(base, label);
  mkdirSync(folder);
  writeFileSync(
    join(folder, "package.json"),
    JSON.stringify({ name: `footprint-${label}`, private: true, dependencies, overrides }, null, 2),
  );
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error", "--cache", npmCache], {
    cwd: folder,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return folderBytes(join(folder, "node_modules"));
}

const npmCache = join(tmpdir(), "lookup-knowledge-footprint-npm-cache");
const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

const folders = workspacePackages();
const needed = workspaceClosure(entry, folders);
const base = mkdtempSync(join(tmpdir(), "lookup-knowledge-footprint-"));
try {
  for (const name of needed) {
    if (!existsSync(join(folders.get(name) as string, "dist"))) throw new Error(`${name} is not built: run \`pnpm build\` first.`);
  }
  const tarballs = join(base, "tarballs");
  mkdirSync(tarballs);
  const packed: Record<string, string> = {};
  for (const name of needed) {
    const output = execFileSync("pnpm", ["pack", "--pack-destination", tarballs], { cwd: folders.get(name) as string, encoding: "utf8" });
    const file = output.trim().split("\n").at(-1) as string;
    packed[name] = `file:${file.startsWith("/") ? file : join(tarballs, file)}`;
  }
  const langchainAlone = installedBytes(base, "langchain", langchainVersions);
  const withTool = installedBytes(base, "with-tool", { ...langchainVersions, [entry]: packed[entry] as string }, packed);
  console.log(
    `Installed size for "the tool for a LangChain agent" (npm, ${needed.length} workspace packages packed), Node ${process.version}`,
  );
  console.log(`${"langchain + @langchain/core".padEnd(46)} ${megabytes(langchainAlone).padStart(9)}`);
  console.log(`${`the same + ${entry}`.padEnd(46)} ${megabytes(withTool).padStart(9)}`);
  console.log(`${"added by the tool".padEnd(46)} ${megabytes(withTool - langchainAlone).padStart(9)}`);
  const tool = join(base, "with-tool", "node_modules");
  const largest = readdirSync(tool)
    .flatMap((name) => (name.startsWith("@") ? readdirSync(join(tool, name)).map((inner) => `${name}/${inner}`) : [name]))
    .filter((name) => !name.startsWith("."))
    .map((name) => ({ name, bytes: folderBytes(join(tool, name)) }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 8);
  console.log("largest packages installed with the tool:");
  for (const { name, bytes } of largest) console.log(`  ${name.padEnd(44)} ${megabytes(bytes).padStart(9)}`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
