// Issue 36 item 5: cold start. Each sample is a whole process started and timed to its exit:
// a CLI `query` on a data folder of SciFact x BENCH_COLD_REPLICAS (default 20: 103,660
// chunks), a one-query library process of ours (the local port, opened and asked one top-10
// query: with the offline embedder, as the product runs, and lexical only), and the same for
// SQLite (better-sqlite3, FTS5 bm25, as stores/sqlite.mjs queries it), with `node -e 0` as the
// floor. The kinds take turns in every round (the machine's load falls on all alike), each
// round asks the next SciFact query, and the table gives medians and the ratio to SQLite.
//
//   node bench/index-peers/cold-start.mjs
//
// Environment: BENCH_COLD_REPLICAS (default 20); BENCH_COLD_ROUNDS (default 15);
// BENCH_COLD_ROOTS: builds of the code to time side by side, `label=path,...` (default
// `ours=` this checkout or BENCH_CODE_ROOT), e.g. `before=/tmp/old-checkout,after=.`;
// BENCH_COLD_DATA: a data folder the CLI ingested, timed too (its L0 index is opened from the
// `l0-index.bin` the ingest wrote, or built from the ingest manifest when that is missing or
// stale: for a folder the CLI did not ingest, write it with write-l0-snapshot.mjs); BENCH_COLD_DIR: where the indexes are built once and reused
// (default <cache>/cold-start-x<replicas>); BENCH_COLD_CPU=1: each process also timed in CPU
// (user + system, through /usr/bin/time), which a loaded machine moves less than wall time.
// The peers install as for run.mjs; SKIPPED otherwise.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { cacheDirectory, codeRoot, datasetDirectory, ensureVectors } from "./corpus.mjs";
import { installPeers, runChild } from "./peers.mjs";

const log = (line) => console.error(`[cold-start] ${line}`);
function skip(why) {
  console.log(`\n## Cold start (issue 36): SKIPPED, ${why}`);
  process.exit(0);
}

const replicas = Number(process.env.BENCH_COLD_REPLICAS ?? 20);
const rounds = Number(process.env.BENCH_COLD_ROUNDS ?? 15);
if (!Number.isInteger(replicas) || replicas <= 0) throw new Error(`BENCH_COLD_REPLICAS must be a positive integer, got ${replicas}`);
if (!Number.isInteger(rounds) || rounds <= 0) throw new Error(`BENCH_COLD_ROUNDS must be a positive integer, got ${rounds}`);
const roots = (process.env.BENCH_COLD_ROOTS ?? `ours=${codeRoot}`).split(",").map((entry) => {
  const [label, path] = entry.split("=");
  if (!label || !path) throw new Error(`BENCH_COLD_ROOTS must be label=path pairs separated by commas, got ${entry}`);
  return { label, path: resolve(path) };
});
// The CLI as it ships: its package's `bin` (the bundled `dist/bundle/main.js` since session 12,
// `dist/main.js` before).
const cliOf = (path) =>
  join(path, "apps/cli", JSON.parse(readFileSync(join(path, "apps/cli/package.json"), "utf8")).bin["lookup-knowledge"]);
// The library files cold-query.mjs imports: those its packages' exports name (the bundled
// `dist/bundle/*.js` since session 16, tsc's files before), so a copy built without its bundle
// step is refused here rather than failing in the first round.
const exportedOf = (path, folder, subpath) =>
  join(path, folder, JSON.parse(readFileSync(join(path, folder, "package.json"), "utf8")).exports[subpath].default);
for (const { path } of roots) {
  for (const built of [cliOf(path), exportedOf(path, "packages/search-port", "./local"), exportedOf(path, "packages/embeddings", ".")]) {
    if (!existsSync(built)) skip(`${built} is missing (run pnpm build first)`);
  }
}
if (!existsSync(join(datasetDirectory, "corpus.jsonl"))) skip(`${join(datasetDirectory, "corpus.jsonl")} is missing`);
const notInstalled = installPeers();
if (notInstalled !== undefined) skip(notInstalled);

// The indexes, built once (by the first root's code) and reused by later runs.
const folder = process.env.BENCH_COLD_DIR ?? join(cacheDirectory, `cold-start-x${replicas}`);
const vectors = await ensureVectors(replicas, 100, log);
for (const store of ["ours", "sqlite"]) {
  const directory = join(folder, store);
  const done = join(directory, ".built");
  if (existsSync(done)) continue;
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  log(`building ${store} for SciFact x ${replicas} in ${directory} ...`);
  const built = runChild("store-child.mjs", ["build", store, directory, String(replicas)], 3_600_000);
  if (built.failed) throw new Error(`building ${store} failed: ${built.failed}`);
  writeFileSync(done, JSON.stringify(built));
}
const texts = JSON.parse(readFileSync(vectors.queries, "utf8")).map((query) => query.text);

// The CLI runs in an empty folder (no settings file) without DATABASE_URL, as a user's first query.
const cwd = mkdtempSync(join(tmpdir(), "cold-start-"));
const { DATABASE_URL: _ignored, ...environment } = process.env;
const here = dirname(fileURLToPath(import.meta.url));
const oursData = join(folder, "ours");
const kinds = [
  { name: "node -e 0 (the floor)", args: () => ["-e", "0"] },
  ...roots.flatMap(({ label, path }) => [
    { name: `${label}: CLI query`, args: (text) => [cliOf(path), "--data", oursData, "query", text] },
    ...(process.env.BENCH_COLD_DATA
      ? [
          {
            name: `${label}: CLI query, ingested folder`,
            args: (text) => [cliOf(path), "--data", resolve(process.env.BENCH_COLD_DATA), "query", text],
          },
        ]
      : []),
    {
      name: `${label}: one query, hybrid`,
      args: (text) => [join(here, "cold-query.mjs"), "ours-hybrid", path, join(oursData, "index"), text],
    },
    {
      name: `${label}: one query, lexical`,
      args: (text) => [join(here, "cold-query.mjs"), "ours-lexical", path, join(oursData, "index"), text],
    },
  ]),
  {
    name: "SQLite FTS5: one query",
    args: (text) => [join(here, "cold-query.mjs"), "sqlite", codeRoot, join(folder, "sqlite/index.sqlite"), text],
  },
];

const cpuTime = process.env.BENCH_COLD_CPU === "1";
if (cpuTime && !existsSync("/usr/bin/time")) throw new Error("BENCH_COLD_CPU=1 needs /usr/bin/time (Debian: apt-get install time)");
const cpuMarker = "LOOKUP_KNOWLEDGE_BENCH_CPU";
const samples = new Map(kinds.map((kind) => [kind.name, []]));
const cpuSamples = new Map(kinds.map((kind) => [kind.name, []]));
try {
  for (let round = 0; round < rounds; round += 1) {
    const text = texts[round % texts.length];
    for (const kind of kinds) {
      const [command, args] = cpuTime
        ? ["/usr/bin/time", ["-f", `${cpuMarker} %U %S`, process.execPath, ...kind.args(text)]]
        : [process.execPath, kind.args(text)];
      const started = performance.now();
      const run = spawnSync(command, args, { cwd, env: environment, encoding: "utf8" });
      const wall = performance.now() - started;
      if (run.status !== 0)
        throw new Error(`${kind.name} failed (exit ${run.status}): ${run.stderr.trim().split("\n").slice(-3).join(" ")}`);
      samples.get(kind.name).push(wall);
      const cpu = new RegExp(`${cpuMarker} ([\\d.]+) ([\\d.]+)`).exec(run.stderr);
      if (cpu) cpuSamples.get(kind.name).push((Number(cpu[1]) + Number(cpu[2])) * 1000);
    }
  }
} finally {
  rmSync(cwd, { recursive: true, force: true });
}

const median = (values) => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const sqlite = median(samples.get("SQLite FTS5: one query"));
const [load1] = loadavg();
console.log(
  `\n## Cold start: whole processes at ${vectors.total} chunks (SciFact x ${replicas}), ${rounds} rounds interleaved, Node ${process.version}, load average ${load1.toFixed(1)} at the end\n`,
);
const sqliteCpu = cpuTime ? median(cpuSamples.get("SQLite FTS5: one query")) : 0;
console.log(`| process | median ms | min ms | / SQLite one query |${cpuTime ? " median CPU ms | CPU / SQLite |" : ""}`);
console.log(`|---|---|---|---|${cpuTime ? "---|---|" : ""}`);
for (const [name, values] of samples) {
  const cpu = cpuTime ? ` ${median(cpuSamples.get(name)).toFixed(0)} | ${(median(cpuSamples.get(name)) / sqliteCpu).toFixed(2)} |` : "";
  console.log(
    `| ${name} | ${median(values).toFixed(0)} | ${Math.min(...values).toFixed(0)} | ${(median(values) / sqlite).toFixed(2)} |${cpu}`,
  );
}
