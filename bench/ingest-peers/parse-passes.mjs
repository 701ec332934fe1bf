// Issue 36 item 6, lead 1: what the block parse (the Lezer parse and the tree built from it,
// `parseMarkdownBlocks`) costs cold, as in a CLI ingest, against warm, and how much of the cold
// cost is a fixed warm-up rather than a price per megabyte. Each child process reads the
// Markdown files of the tree (every `share`-th file, in name order), then parses all of them
// `passes` times in a row and reports the CPU time of each pass (process-wide: V8's compiler
// threads count, as they do in an ingest). Shares 1, 2, 4 and 8 run in the same rounds,
// turned round by round; prints medians (min-max). A block reader of our own would be read
// the same way: its first pass against this one's.
//
//   node bench/ingest-peers/parse-passes.mjs [tree]                      # 3 passes, 5 rounds
//   BENCH_PARSE_PASSES=4 BENCH_INGEST_ROUNDS=7 node bench/ingest-peers/parse-passes.mjs <tree>
//   BENCH_PARSE_FLAGS="--maglev" node bench/ingest-peers/parse-passes.mjs   # V8 flags for the children
//
// Needs `pnpm build` (packages/ingest's dist).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { spread } from "./median.mjs";
import { childStderr } from "./child-stderr.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");

/** The Markdown files under `folder`, in name order (dot folders and node_modules left out). */
function markdownFiles(folder) {
  const files = [];
  const walk = (current) => {
    const entries = readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules") walk(path);
      else if (entry.isFile() && /\.mdx?$/.test(entry.name)) files.push(path);
    }
  };
  walk(folder);
  return files;
}

function positiveInteger(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${process.env[name]}`);
  return value;
}

if (process.argv[2] === "--child") {
  const [, , , tree, share, passes] = process.argv;
  // Not part of the package's exports: the block parse alone, from the build.
  const { parseMarkdownBlocks } = await import(join(root, "packages/ingest/dist/markdown/parse-markdown-blocks.js"));
  const texts = markdownFiles(tree)
    .filter((_, index) => index % Number(share) === 0)
    .map((path) => readFileSync(path, "utf8"));
  const cpuMs = [];
  let blocks = 0;
  for (let pass = 0; pass < Number(passes); pass += 1) {
    const before = process.cpuUsage();
    for (const text of texts) blocks += parseMarkdownBlocks(text).children.length;
    const used = process.cpuUsage(before);
    cpuMs.push((used.user + used.system) / 1000);
  }
  const characters = texts.reduce((total, text) => total + text.length, 0);
  console.log(JSON.stringify({ cpuMs, files: texts.length, characters, blocks }));
  process.exit(0);
}

const tree = resolve(process.argv[2] ?? join(root, "../shared/datasets/apisix-docs/docs/en"));
const rounds = positiveInteger("BENCH_INGEST_ROUNDS", 5);
const passes = positiveInteger("BENCH_PARSE_PASSES", 3);
const flags = (process.env.BENCH_PARSE_FLAGS ?? "").split(/\s+/).filter((flag) => flag !== "");
const shares = [1, 2, 4, 8];

const results = new Map(shares.map((share) => [share, []]));
const loads = [];
for (let round = 0; round < rounds; round += 1) {
  for (const share of shares.map((_, index) => shares[(index + round) % shares.length])) {
    loads.push(loadavg()[0]);
    const run = spawnSync(process.execPath, [...flags, fileURLToPath(import.meta.url), "--child", tree, String(share), String(passes)], {
      encoding: "utf8",
      timeout: 600_000,
    });
    if (run.status !== 0) throw new Error(`share 1/${share} failed:\n${childStderr(run.stderr)}`);
    results.get(share).push(JSON.parse(run.stdout.trim().split("\n").pop()));
  }
  console.error(`[parse-passes] round ${round + 1}/${rounds} done`);
}

console.log(
  `\n## The block parse (parseMarkdownBlocks) of ${tree}, ${passes} passes a process, one-minute load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}, median of ${rounds} interleaved rounds (min-max)${flags.length > 0 ? `, V8 flags ${flags.join(" ")}` : ""}\n`,
);
console.log(`| files | MB | ${Array.from({ length: passes }, (_, pass) => `pass ${pass + 1} CPU (ms)`).join(" | ")} |`);
console.log(`|---|---|${"---|".repeat(passes)}`);
for (const [share, list] of results) {
  const { files, characters } = list[0];
  const cells = Array.from({ length: passes }, (_, pass) => spread(list.map((result) => result.cpuMs[pass])));
  console.log(`| ${files}${share === 1 ? "" : ` (1/${share})`} | ${(characters / 1e6).toFixed(2)} | ${cells.join(" | ")} |`);
}
