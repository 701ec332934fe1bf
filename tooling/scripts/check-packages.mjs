#!/usr/bin/env node
// Checks every published workspace package as a user would receive it: packs it with
// `pnpm pack`, then
//   1. the tarball holds only what users need: no `*.tsbuildinfo`, no test files
//      (`*.test.*`), no test fixtures (`*-test-fixtures*`), nothing under a `test` folder
//      (`unwanted-packed-files.mjs`);
//   2. every source map in the tarball (`*.js.map`, `*.d.ts.map`) points at files the tarball
//      holds, so "go to definition" and stack traces land on real sources;
//   3. `publint` finds no error in its package.json and files;
//   4. `@arethetypeswrong/cli` finds no type-resolution problem for ESM and bundler users
//      (the packages are ESM only, so CommonJS `require` is out of scope).
// Usage: node tooling/scripts/check-packages.mjs [package folder ...] (default: every
// workspace package whose package.json is not private). Exits 1 on the first failed package.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize, posix, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { unwantedPackedFiles } from "./unwanted-packed-files.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = (name) => join(root, "node_modules", ".bin", name);

function publishedPackages() {
  const folders = [];
  for (const group of ["packages", "apps"]) {
    for (const name of readdirSync(join(root, group))) {
      const manifest = join(root, group, name, "package.json");
      if (!existsSync(manifest)) continue;
      if (JSON.parse(readFileSync(manifest, "utf8")).private === true) continue;
      folders.push(join(group, name));
    }
  }
  return folders;
}

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function checkSourceMaps(unpacked) {
  const problems = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".map")) {
        const map = JSON.parse(readFileSync(path, "utf8"));
        for (const source of map.sources ?? []) {
          const target = normalize(join(dirname(path), posix.join(map.sourceRoot ?? "", source)));
          if (!existsSync(target)) problems.push(`${path.slice(unpacked.length + 1)} points at ${source}, which the package does not ship`);
        }
      }
    }
  };
  walk(unpacked);
  return problems;
}

const folders = process.argv.length > 2 ? process.argv.slice(2) : publishedPackages();
let failed = false;
for (const folder of folders) {
  const cwd = join(root, folder);
  const name = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")).name;
  const scratch = mkdtempSync(join(tmpdir(), "check-package-"));
  try {
    run("pnpm", ["pack", "--pack-destination", scratch], cwd);
    const tarball = readdirSync(scratch).find((file) => file.endsWith(".tgz"));
    if (tarball === undefined) throw new Error("pnpm pack wrote no tarball");
    const unwanted = unwantedPackedFiles(run("tar", ["-tzf", join(scratch, tarball)], cwd).split("\n"));
    if (unwanted.length > 0)
      throw new Error(`files users do not need:\n  ${unwanted.map((file) => `${file.path} (${file.reason})`).join("\n  ")}`);
    run("tar", ["-xzf", join(scratch, tarball), "-C", scratch], cwd);
    const problems = checkSourceMaps(join(scratch, "package"));
    if (problems.length > 0) throw new Error(`source maps:\n  ${problems.slice(0, 10).join("\n  ")}`);
    run(bin("publint"), ["run", "--strict", join(scratch, "package")], cwd);
    run(bin("attw"), [join(scratch, tarball), "--profile", "esm-only", "--format", "table-flipped"], cwd);
    console.log(`ok ${name}`);
  } catch (error) {
    failed = true;
    const output = [error.stdout, error.stderr].filter(Boolean).join("\n").trim();
    console.error(`FAILED ${name} (${folder}): ${output || error.message}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
