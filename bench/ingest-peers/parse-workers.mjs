// Issue 36 item 6: what the parse-worker default is chosen by. Ingests one tree into a new
// local index (the offline embedder, commit included; what `ingestIntoLocalIndex` does) with
// each `parseWorkers` value in turn, one child process per run, interleaved round by round,
// and prints the medians (min-max) of wall and CPU time (the process's, worker threads
// included; imports and the word table excluded).
//
//   node bench/ingest-peers/parse-workers.mjs [tree]      # parseWorkers 1 and 2, 5 rounds
//   BENCH_PARSE_WORKERS=1,2,3 BENCH_INGEST_ROUNDS=7 node bench/ingest-peers/parse-workers.mjs
//
// Needs `pnpm build`. Its figures are written beside `defaultParseWorkers`
// (packages/ingest/src/parse-pool/default-parse-workers.ts).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./median.mjs";
import { childStderr } from "./child-stderr.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");

if (process.argv[2] === "--child") {
  const [, , , workers, tree] = process.argv;
  const { createOfflineEmbeddings } = await import(join(root, "packages/embeddings/dist/index.js"));
  const { openLocalSearchPort } = await import(join(root, "packages/search-port/dist/local/index.js"));
  const { ingestFolder } = await import(join(root, "packages/ingest/dist/index.js"));
  const embeddings = createOfflineEmbeddings();
  const dataDirectory = mkdtempSync(join(tmpdir(), "parse-workers-"));
  try {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const writer = await openLocalSearchPort({ directory: join(dataDirectory, "index"), embeddings, mode: "write" });
    const report = await ingestFolder({ root: tree, dataDirectory, writer, parseWorkers: Number(workers) });
    await writer.close();
    const cpu = process.cpuUsage(cpuBefore);
    console.log(
      JSON.stringify({ wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000, chunks: report.chunksWritten }),
    );
  } finally {
    rmSync(dataDirectory, { recursive: true, force: true });
  }
  process.exit(0);
}

const tree = resolve(process.argv[2] ?? join(root, "../shared/datasets/apisix-docs/docs/en"));
const rounds = Number(process.env.BENCH_INGEST_ROUNDS ?? 5);
const values = (process.env.BENCH_PARSE_WORKERS ?? "1,2").split(",").map(Number);
if (!Number.isInteger(rounds) || rounds <= 0) throw new Error(`BENCH_INGEST_ROUNDS must be a positive integer, got ${rounds}`);
if (values.some((value) => !Number.isInteger(value) || value <= 0))
  throw new Error(`BENCH_PARSE_WORKERS must list positive integers, got ${process.env.BENCH_PARSE_WORKERS}`);

const results = new Map(values.map((value) => [value, []]));
const loads = [];
for (let round = 0; round < rounds; round += 1) {
  for (const value of values.map((_, index) => values[(index + round) % values.length])) {
    loads.push(loadavg()[0]);
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", String(value), tree], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`parseWorkers ${value} failed:\n${childStderr(run.stderr)}`);
    results.get(value).push(JSON.parse(run.stdout.trim().split("\n").pop()));
  }
  console.error(`[parse-workers] round ${round + 1}/${rounds} done`);
}

const show = (list) => `${median(list).toFixed(0)} (${Math.min(...list).toFixed(0)}-${Math.max(...list).toFixed(0)})`;
console.log(
  `\n## parseWorkers on ${tree}: ${availableParallelism()} cores, one-minute load ${median(loads).toFixed(1)} (median while it ran), median of ${rounds} interleaved rounds (min-max)\n`,
);
console.log("| parseWorkers | wall (ms) | CPU (ms) | CPU / parseWorkers 1 | chunks |");
console.log("|---|---|---|---|---|");
const baseline = results.has(1) ? median(results.get(1).map((result) => result.cpuMs)) : undefined;
for (const [value, list] of results) {
  const cpu = list.map((result) => result.cpuMs);
  const ratio = baseline === undefined ? "–" : `${(median(cpu) / baseline).toFixed(2)}x`;
  console.log(`| ${value} | ${show(list.map((result) => result.wallMs))} | ${show(cpu)} | ${ratio} | ${list[0].chunks} |`);
}
