// Issue 36 item 6: the CLI's ingest of one tree beside LangChain.js's read + split of it,
// interleaved round by round, with the ratios the target is read at. Optionally beside
// another build of the CLI (an earlier commit's checkout), in the same rounds:
//
//   node bench/ingest-peers/cli-ratio.mjs [tree]
//   BENCH_CLI_BEFORE=/path/to/other/checkout node bench/ingest-peers/cli-ratio.mjs
//
// The CLI run is the shipped bin, apps/cli/dist/bundle/main.js (BENCH_CLI_UNBUNDLED=1: the
// unbundled apps/cli/dist/main.js; see cli-main.mjs). The tree defaults to
// ../shared/datasets/apisix-docs/docs/en; BENCH_INGEST_ROUNDS (default 5) rounds, the order of the tools turned by one each round. Needs `pnpm build` and the
// peers installed (run.mjs installs them). Prints the medians (min-max) and the ratios of
// medians: the CLI's printed "written in" and its whole process (spawn to exit) over
// LangChain's pipeline wall (imports excluded) and over its whole process, and the CLI's CPU
// time (whole process) over LangChain's (pipeline): the steadiest of them on a busy machine.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cliMain } from "./cli-main.mjs";
import { measureCli } from "./measure-cli.mjs";
import { median } from "./median.mjs";
import { childStderr } from "./child-stderr.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
const tree = resolve(process.argv[2] ?? join(root, "../shared/datasets/apisix-docs/docs/en"));
const rounds = Number(process.env.BENCH_INGEST_ROUNDS ?? 5);
if (!Number.isInteger(rounds) || rounds <= 0)
  throw new Error(`BENCH_INGEST_ROUNDS must be a positive integer, got ${process.env.BENCH_INGEST_ROUNDS}`);
if (!existsSync(tree)) throw new Error(`no such tree: ${tree}`);
const timeoutMs = 600_000;

const clis = { ours: cliMain(root) };
if (process.env.BENCH_CLI_BEFORE) clis.before = cliMain(resolve(process.env.BENCH_CLI_BEFORE));
for (const main of Object.values(clis)) if (!existsSync(main)) throw new Error(`${main} is missing (run pnpm build there first)`);

function measureLangChain() {
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(here, "measure-child.mjs"), "langchain", "chunk", tree], {
    cwd: here,
    encoding: "utf8",
    timeout: timeoutMs,
  });
  const processMs = performance.now() - started;
  if (run.status !== 0) throw new Error(`LangChain failed:\n${childStderr(run.stderr)}`);
  return { ...JSON.parse(run.stdout.trim().split("\n").pop()), processMs };
}

const tools = ["langchain", ...Object.keys(clis)];
const results = Object.fromEntries(tools.map((tool) => [tool, []]));
for (let round = 0; round < rounds; round += 1) {
  const order = tools.map((_, index) => tools[(index + round) % tools.length]);
  for (const tool of order) {
    const result = tool === "langchain" ? measureLangChain() : measureCli(clis[tool], tree, timeoutMs);
    if (result.failed !== undefined) throw new Error(`${tool} failed: ${result.failed}`);
    results[tool].push(result);
  }
  console.error(`[cli-ratio] round ${round + 1}/${rounds} done`);
}

const stat = (tool, key) => {
  const values = results[tool].map((result) => result[key]);
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
};
const show = ({ median: middle, min, max }) => `${middle.toFixed(0)} (${min.toFixed(0)}-${max.toFixed(0)})`;

const langchainWall = stat("langchain", "wallMs").median;
const langchainProcess = stat("langchain", "processMs").median;
const langchainCpu = stat("langchain", "cpuMs").median;
console.log(`\n## CLI ingest beside LangChain.js read + split: ${tree}, median of ${rounds} interleaved rounds (min-max)\n`);
for (const [name, main] of Object.entries(clis)) console.log(`CLI (${name}): ${main}`);
console.log("");
console.log(
  "| measure | LangChain.js | " +
    Object.keys(clis)
      .map((name) => `CLI (${name})`)
      .join(" | ") +
    " |",
);
console.log(
  `|---|---|${Object.keys(clis)
    .map(() => "---")
    .join("|")}|`,
);
const row = (label, key) =>
  console.log(
    `| ${label} | ${show(stat("langchain", key))} | ${Object.keys(clis)
      .map((name) => show(stat(name, key)))
      .join(" | ")} |`,
  );
row("wall (ms): LangChain's pipeline, the CLI's 'written in'", "wallMs");
row("whole process (ms)", "processMs");
row("CPU (ms)", "cpuMs");
row("chunks", "chunks");
row("peak RSS (MB)", "peakRssMb");
const ratio = (label, read) =>
  console.log(
    `| ${label} | – | ${Object.keys(clis)
      .map((name) => `${read(name).toFixed(2)}x`)
      .join(" | ")} |`,
  );
ratio("'written in' / LangChain wall", (name) => stat(name, "wallMs").median / langchainWall);
ratio("whole process / LangChain wall", (name) => stat(name, "processMs").median / langchainWall);
ratio("whole process / LangChain whole process", (name) => stat(name, "processMs").median / langchainProcess);
ratio("CPU (whole process) / LangChain CPU (pipeline)", (name) => stat(name, "cpuMs").median / langchainCpu);
