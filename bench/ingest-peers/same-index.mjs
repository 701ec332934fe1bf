// Issue 36 item 6: proof that a speed-up changed nothing an ingest writes. Ingests one tree
// with the CLI of this checkout and with the CLI of another (an earlier commit's checkout,
// built), each into a new data folder, and compares what they wrote: every data file of the
// local index byte for byte (records, metadata, vectors, postings, keys, bounds...; matched
// by kind, since a file's name holds the commit's random id), the index manifest and the
// ingest manifest with their ids and times left out. Exits 1 on the first difference.
//
//   BENCH_CLI_BEFORE=/path/to/other/checkout node bench/ingest-peers/same-index.mjs [tree ...]
//
// The trees default to ../shared/datasets/apisix-docs/docs/en and .../docs (English and
// Chinese) and examples/knowledge-base. Both checkouts must be built (`pnpm build`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cliMain } from "./cli-main.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
if (!process.env.BENCH_CLI_BEFORE) throw new Error("BENCH_CLI_BEFORE must name the other checkout (built)");
const clis = { before: cliMain(resolve(process.env.BENCH_CLI_BEFORE)), ours: cliMain(root) };
for (const main of Object.values(clis)) if (!existsSync(main)) throw new Error(`${main} is missing (run pnpm build there first)`);
const datasets = join(root, "../shared/datasets");
const trees =
  process.argv.length > 2
    ? process.argv.slice(2).map((tree) => resolve(tree))
    : [join(datasets, "apisix-docs/docs/en"), join(datasets, "apisix-docs/docs"), join(root, "examples/knowledge-base")].filter(existsSync);

/** Ingests `tree` with `cliMain` into a new folder; the folder. */
function ingest(cliMain, tree, workspace) {
  const data = join(workspace, "data");
  const run = spawnSync(process.execPath, [cliMain, "-d", data, "ingest", "--no-progress", tree], { cwd: workspace, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${cliMain} failed on ${tree}: ${run.stderr}`);
  return data;
}

/** The index's data files by kind (`content.txt`, `vectors.bin`, ...: the name after the commit id), as bytes. */
function indexFiles(data) {
  const folder = join(data, "index");
  const files = new Map();
  for (const name of readdirSync(folder).sort()) {
    if (name === "manifest.json" || name.endsWith(".lock")) continue;
    const kind = name.replace(/^[0-9]+-[0-9a-f]+\./, "");
    if (files.has(kind)) throw new Error(`two ${kind} files in ${folder}: compare a one-commit ingest`);
    files.set(kind, readFileSync(join(folder, name)));
  }
  return files;
}

/** A JSON file with the values of ids, hashes of ids and times left out. */
function withoutIds(file) {
  return JSON.stringify(JSON.parse(readFileSync(file, "utf8")), (key, value) =>
    /^(id|commitId|committedAt|checksum|ingestedAt|createdAt|updatedAt)$/i.test(key) && typeof value !== "object" ? "-" : value,
  ).replace(/[0-9]{8}-[0-9a-f]{16}/g, "<commit>");
}

let differences = 0;
for (const tree of trees) {
  const workspaces = Object.fromEntries(Object.keys(clis).map((name) => [name, mkdtempSync(join(tmpdir(), `same-index-${name}-`))]));
  try {
    const data = Object.fromEntries(Object.entries(clis).map(([name, main]) => [name, ingest(main, tree, workspaces[name])]));
    const before = indexFiles(data.before);
    const ours = indexFiles(data.ours);
    const kinds = [...new Set([...before.keys(), ...ours.keys()])].sort();
    const changed = kinds.filter((kind) => !before.get(kind)?.equals(ours.get(kind) ?? Buffer.alloc(0)) || !ours.has(kind));
    for (const file of ["index/manifest.json", "ingest-manifest.json"]) {
      if (withoutIds(join(data.before, file)) !== withoutIds(join(data.ours, file))) changed.push(file);
    }
    const bytes = [...ours.values()].reduce((total, buffer) => total + buffer.length, 0);
    console.log(
      `${changed.length === 0 ? "same" : "DIFFERENT"}: ${tree} (${kinds.length} index files, ${bytes} bytes${changed.length === 0 ? "" : `; differ: ${changed.join(", ")}`})`,
    );
    differences += changed.length;
  } finally {
    for (const workspace of Object.values(workspaces)) rmSync(workspace, { recursive: true, force: true });
  }
}
process.exit(differences === 0 ? 0 : 1);
