// Issue 14: our Markdown ingest side by side with LangChain.js, Mastra and LlamaIndex.TS on
// the same trees, chunk sizes alike and the same offline embedder, in one run. Each
// measurement runs in a child process of its own (measure-child.mjs; the CLI with
// exit-usage.mjs preloaded), so its peak RSS is its own. The peers are installed on demand
// from this folder's own lockfile (outside the pnpm workspace, so CI never installs them);
// when that fails this prints "SKIPPED, <why>" and exits 0.
//
// Environment: BENCH_SKIP_PEERS=1 skips; BENCH_INGEST_ROUNDS (default 3); BENCH_INGEST_TREES
// (more folders, separated by commas); BENCH_INGEST_TIMEOUT_S (default 600, per child);
// BENCH_CLI_UNBUNDLED=1 runs apps/cli/dist/main.js instead of the shipped bundle (cli-main.mjs).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cliMain } from "./cli-main.mjs";
import { measureCli as measureCliAt } from "./measure-cli.mjs";
import { median } from "./median.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
const log = (line) => console.error(`[ingest-peers] ${line}`);

function skip(why) {
  console.log(`\n## Ingest peers (issue 14): SKIPPED, ${why}`);
  process.exit(0);
}

if (process.env.BENCH_SKIP_PEERS === "1") skip("BENCH_SKIP_PEERS=1");
const rounds = Number(process.env.BENCH_INGEST_ROUNDS ?? 3);
if (!Number.isInteger(rounds) || rounds <= 0)
  throw new Error(`BENCH_INGEST_ROUNDS must be a positive integer, got ${process.env.BENCH_INGEST_ROUNDS}`);
const timeoutMs = Number(process.env.BENCH_INGEST_TIMEOUT_S ?? 600) * 1000;

for (const built of [
  "packages/ingest/dist/index.js",
  "packages/embeddings/dist/index.js",
  "apps/agent-tool/dist/local.js",
  relative(root, cliMain(root)),
]) {
  if (!existsSync(join(root, built))) skip(`${built} is missing (run pnpm build first)`);
}

const candidates = [join(root, "examples/knowledge-base"), join(root, "../shared/datasets/apisix-docs/docs/en")];
for (const extra of (process.env.BENCH_INGEST_TREES ?? "").split(",")) if (extra.trim() !== "") candidates.push(resolve(extra.trim()));
const trees = [];
for (const tree of candidates) {
  if (existsSync(tree)) trees.push(tree);
  else console.log(`\n## Ingest peers, ${tree}: SKIPPED, not found`);
}
if (trees.length === 0) skip("no document tree found");

try {
  execFileSync("pnpm", ["install", "--dir", here, "--ignore-workspace", "--frozen-lockfile", "--prefer-offline", "--reporter=silent"], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 600_000,
  });
} catch (error) {
  skip(
    `could not install the peers (${
      String(error.stderr ?? error.message)
        .trim()
        .split("\n")
        .slice(-1)[0] || error.message
    })`,
  );
}

const tools = ["ours", "langchain", "mastra", "llamaindex"];
const names = {
  ours: "ours",
  cli: "ours, CLI",
  langchain: "LangChain.js",
  mastra: "Mastra",
  llamaindex: "LlamaIndex.TS",
};
const failures = new Map();
for (const tool of tools.slice(1)) {
  const probe = spawnSync(process.execPath, [join(here, "measure-child.mjs"), tool, "chunk", join(root, "examples/knowledge-base")], {
    cwd: here,
    encoding: "utf8",
    timeout: timeoutMs,
  });
  if (probe.status !== 0) failures.set(tool, `SKIPPED, does not run here (${(probe.stderr ?? "").trim().split("\n").slice(-1)[0]})`);
}

function markdownBytes(folder) {
  let bytes = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules") bytes += markdownBytes(path);
    else if (entry.isFile() && /\.mdx?$/.test(entry.name)) bytes += statSync(path).size;
  }
  return bytes;
}

function measure(tool, stage, tree) {
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(here, "measure-child.mjs"), tool, stage, tree], {
    cwd: here,
    encoding: "utf8",
    timeout: timeoutMs,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const processMs = performance.now() - started;
  if (run.status !== 0) return { failed: `exit ${run.status ?? run.signal}: ${(run.stderr ?? "").trim().split("\n").slice(-1)[0]}` };
  return { ...JSON.parse(run.stdout.trim().split("\n").pop()), processMs };
}

/** The CLI, as a user runs it, into a new data folder: the whole process, and its "written in". */
const measureCli = (tree) => measureCliAt(cliMain(root), tree, timeoutMs);

// results[tree][stage][tool] = [one result a round]
const results = new Map(trees.map((tree) => [tree, { chunk: {}, embed: {} }]));
for (let round = 1; round <= rounds; round += 1) {
  for (const tree of trees) {
    log(`round ${round}/${rounds}: ${relative(root, tree) || tree}`);
    for (const stage of ["chunk", "embed"]) {
      const row = results.get(tree)[stage];
      const columns = stage === "embed" ? ["ours", "cli", ...tools.slice(1)] : tools;
      for (const tool of columns) {
        if (failures.has(tool)) continue;
        const result = tool === "cli" ? measureCli(tree) : measure(tool, stage, tree);
        if (result.failed !== undefined) {
          failures.set(`${tool}:${stage}:${tree}`, `${names[tool]} (${stage}, ${basename(tree)}) failed: ${result.failed}`);
          continue;
        }
        if (row[tool] === undefined) row[tool] = [];
        row[tool].push(result);
      }
    }
  }
}

const summary = (list, read) => (list === undefined || list.length === 0 ? undefined : list.map(read));
function printTree(tree) {
  const bytes = markdownBytes(tree);
  console.log(
    `\n## Ingest peers: ${relative(root, tree) || tree} (${(bytes / 1e6).toFixed(2)} MB of .md/.mdx), median of ${rounds} rounds (min-max)\n`,
  );
  const header = ["measure", names.ours, names.cli];
  for (const tool of tools.slice(1)) header.push(names[tool], `${tool} / ours`);
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const stage of ["chunk", "embed"]) {
    const row = results.get(tree)[stage];
    const label = stage === "chunk" ? "load + chunk" : "+ embed + store";
    const line = (measureName, read, digits, { range = false, rate = false } = {}) => {
      const statsOf = (tool) => {
        const values = summary(row[tool], read);
        return values === undefined ? undefined : { median: median(values), min: Math.min(...values), max: Math.max(...values) };
      };
      const show = (value) => {
        if (value === undefined) return "–";
        if (rate) return (bytes / 1e6 / (value.median / 1000)).toFixed(2);
        const text = value.median.toFixed(digits);
        return range ? `${text} (${value.min.toFixed(digits)}-${value.max.toFixed(digits)})` : text;
      };
      const ours = statsOf("ours");
      const cells = [`${label}: ${measureName}`, show(ours), stage === "chunk" ? "–" : show(statsOf("cli"))];
      for (const tool of tools.slice(1)) {
        const value = statsOf(tool);
        cells.push(show(value));
        if (value === undefined || ours === undefined || ours.median === 0) cells.push("–");
        else cells.push(`${(rate ? ours.median / value.median : value.median / ours.median).toFixed(2)}x`);
      }
      console.log(`| ${cells.join(" | ")} |`);
    };
    line("wall (ms)", (r) => r.wallMs, 0, { range: true });
    line("CPU (ms)", (r) => r.cpuMs, 0, { range: true });
    line("MB/s", (r) => r.wallMs, 2, { rate: true });
    line("chunks", (r) => r.chunks, 0);
    line("peak RSS (MB)", (r) => r.peakRssMb, 0);
    line("whole process (ms)", (r) => r.processMs, 0, { range: true });
  }
}
for (const tree of trees) printTree(tree);
for (const reason of failures.values()) console.log(`\n- ${reason}`);
console.log(
  "\nratios are peer / ours (over 1: the peer takes longer or more memory; for MB/s, over 1: the peer is faster). " +
    "wall and CPU: the pipeline alone (imports and the embedder's word table excluded); whole process: spawn to exit. " +
    "ours, CLI: wall is its printed 'written in' (0.1 s steps), CPU and peak RSS the whole process's. " +
    "Chunks: ours and Mastra/LangChain at most 1500 characters with 150 overlap, LlamaIndex 375 tokens with 38 overlap; " +
    "the same offline embedder everywhere.",
);
