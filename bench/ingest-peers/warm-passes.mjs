// Issue 36 item 6: how much of a cold ingest is the process being cold. One child process
// ingests the tree several times in a row, each pass into a new local index (the offline
// embedder, commit included; what `ingestIntoLocalIndex` does), and reports each pass's
// 'written in' (the report's duration, as the CLI prints it) and CPU time; beside it, in the
// same rounds, LangChain.js's read + split of the tree in a process of its own
// (measure-child.mjs). The first pass is what a CLI ingest pays; the later ones show what the
// same work costs once the JIT has warmed up and the embedder's word features are kept.
//
//   node bench/ingest-peers/warm-passes.mjs [tree]                 # 3 passes a process, 3 rounds
//   BENCH_WARM_PASSES=4 BENCH_INGEST_ROUNDS=5 node bench/ingest-peers/warm-passes.mjs
//
// Needs `pnpm build` and the peers installed (run.mjs installs them).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./median.mjs";
import { childStderr } from "./child-stderr.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");

if (process.argv[2] === "--child") {
  const [, , , passes, tree] = process.argv;
  const { createOfflineEmbeddings } = await import(join(root, "packages/embeddings/dist/index.js"));
  const { openLocalSearchPort } = await import(join(root, "packages/search-port/dist/local/index.js"));
  const { ingestFolder } = await import(join(root, "packages/ingest/dist/index.js"));
  const embeddings = createOfflineEmbeddings();
  const results = [];
  for (let pass = 0; pass < Number(passes); pass += 1) {
    const dataDirectory = mkdtempSync(join(tmpdir(), "warm-passes-"));
    try {
      const writer = await openLocalSearchPort({ directory: join(dataDirectory, "index"), embeddings, mode: "write" });
      const cpuBefore = process.cpuUsage();
      const report = await ingestFolder({ root: tree, dataDirectory, writer });
      const cpu = process.cpuUsage(cpuBefore);
      await writer.close();
      results.push({ writtenMs: report.durationMs, cpuMs: (cpu.user + cpu.system) / 1000, chunks: report.chunksWritten });
    } finally {
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  }
  console.log(JSON.stringify(results));
  process.exit(0);
}

const tree = resolve(process.argv[2] ?? join(root, "../shared/datasets/apisix-docs/docs/en"));
const rounds = Number(process.env.BENCH_INGEST_ROUNDS ?? 3);
const passes = Number(process.env.BENCH_WARM_PASSES ?? 3);
for (const [name, value] of [
  ["BENCH_INGEST_ROUNDS", rounds],
  ["BENCH_WARM_PASSES", passes],
]) {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${value}`);
}

const ours = Array.from({ length: passes }, () => []);
const langchain = [];
const loads = [];
for (let round = 0; round < rounds; round += 1) {
  loads.push(loadavg()[0]);
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", String(passes), tree], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`ingest failed:\n${childStderr(run.stderr)}`);
  for (const [pass, result] of JSON.parse(run.stdout.trim().split("\n").pop()).entries()) ours[pass].push(result);
  const peer = spawnSync(process.execPath, [join(here, "measure-child.mjs"), "langchain", "chunk", tree], { cwd: here, encoding: "utf8" });
  if (peer.status !== 0) throw new Error(`LangChain failed:\n${childStderr(peer.stderr)}`);
  langchain.push(JSON.parse(peer.stdout.trim().split("\n").pop()));
  loads.push(loadavg()[0]);
  console.error(`[warm-passes] round ${round + 1}/${rounds} done`);
}

const show = (values) => `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
const langchainWall = median(langchain.map((result) => result.wallMs));
console.log(`\n## Ingest passes in one process beside LangChain.js read + split: ${tree}, median of ${rounds} rounds (min-max)\n`);
console.log(`one-minute load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}\n`);
console.log("| pass | 'written in' (ms) | CPU (ms) | 'written in' / LangChain wall |");
console.log("|---|---|---|---|");
console.log(
  `| LangChain.js read + split (its own process) | ${show(langchain.map((result) => result.wallMs))} | ${show(langchain.map((result) => result.cpuMs))} | – |`,
);
ours.forEach((results, pass) => {
  const written = results.map((result) => result.writtenMs);
  console.log(
    `| ours, pass ${pass + 1}${pass === 0 ? " (cold)" : ""} | ${show(written)} | ${show(results.map((result) => result.cpuMs))} | ${(median(written) / langchainWall).toFixed(2)}x |`,
  );
});
