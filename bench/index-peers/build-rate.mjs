// The build rate (embedding excluded) of our index beside SQLite FTS5 + sqlite-vec's, and of
// our index as built from another checkout (before a change), in turns, so that every build
// sees the same machine load: each build is a `store-child.mjs build` process of its own, and
// its CPU time (user + system, all threads, the feeding of chunks included; and less the feeding,
// as store-child.mjs measures it, "store CPU") is read beside its
// wall time, for a machine too busy for wall times alone.
//   node bench/index-peers/build-rate.mjs
//
// Environment: BENCH_RATE_REPLICAS (default 20: SciFact x 20, 103,660 chunks; 200 is 1,036,600);
// BENCH_RATE_ROUNDS (default 2: builds of each entry, taken in turns); BENCH_RATE_ENTRIES
// (default "ours,sqlite": a comma list of "sqlite", "ours" (this checkout) and
// "<name>=<checkout>" (ours, built from a copy of the repository at another commit, e.g.
// "before=/tmp/old")); BENCH_PEER_TIMEOUT_S (default 3600, per build).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { root } from "./corpus.mjs";

const here = dirname(fileURLToPath(import.meta.url));

function wholeNumber(name, fallback, least) {
  const text = process.env[name];
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(value) || value < least)
    throw new Error(`${name} must be a whole number of at least ${least}, got ${JSON.stringify(text)}`);
  return value;
}

const replicas = wholeNumber("BENCH_RATE_REPLICAS", 20, 1);
const rounds = wholeNumber("BENCH_RATE_ROUNDS", 2, 1);
const timeoutMs = wholeNumber("BENCH_PEER_TIMEOUT_S", 3600, 1) * 1000;
const entries = (process.env.BENCH_RATE_ENTRIES ?? "ours,sqlite").split(",").map((text) => {
  const entry = text.trim();
  if (entry === "sqlite") return { name: "sqlite", store: "sqlite", codeRoot: root };
  if (entry === "ours") return { name: "ours", store: "ours", codeRoot: root };
  const [name, codeRoot] = entry.split("=");
  if (
    name === undefined ||
    name === "" ||
    codeRoot === undefined ||
    !existsSync(join(codeRoot, "packages/search-port/dist/local/index.js"))
  )
    throw new Error(`BENCH_RATE_ENTRIES: "${entry}" is not sqlite, ours or <name>=<a built checkout>`);
  return { name, store: "ours", codeRoot };
});

/** One build in a child process: store-child.mjs's JSON line, with the child's CPU seconds from /usr/bin/time. */
function build(entry) {
  const directory = mkdtempSync(join(tmpdir(), "build-rate-"));
  const timeFile = join(directory, "time.txt");
  const loadBefore = loadavg()[0];
  try {
    const run = spawnSync(
      "/usr/bin/time",
      [
        "-f",
        "%U %S",
        "-o",
        timeFile,
        process.execPath,
        "--max-old-space-size=16384",
        join(here, "store-child.mjs"),
        "build",
        entry.store,
        join(directory, "store"),
        String(replicas),
      ],
      {
        cwd: here,
        encoding: "utf8",
        timeout: timeoutMs,
        maxBuffer: 64 * 1024 * 1024,
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, BENCH_CODE_ROOT: entry.codeRoot },
      },
    );
    if (run.error !== undefined) return { failed: run.error.message };
    if (run.status !== 0) return { failed: `exit ${run.status ?? run.signal}` };
    const result = JSON.parse(run.stdout.trim().split("\n").pop());
    const [user, system] = readFileSync(timeFile, "utf8").trim().split("\n").pop().split(" ").map(Number);
    // The store's CPU: the process's less the making of its batches (replicas generated, vectors
    // read), which both stores pay alike; 0 from a store-child.mjs that does not report it.
    const cpuSeconds = user + system;
    return { ...result, cpuSeconds, storeCpuSeconds: cpuSeconds - (result.feedCpuSeconds ?? 0), load: [loadBefore, loadavg()[0]] };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The median; of an even number of values, the mean of the middle two. */
const median = (values) => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const results = new Map(entries.map((entry) => [entry.name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const entry of entries) {
    const result = build(entry);
    console.error(`[build-rate] round ${round + 1} ${entry.name}: ${JSON.stringify(result)}`);
    if (result.failed !== undefined) throw new Error(`${entry.name} build failed: ${result.failed}`);
    results.get(entry.name).push(result);
  }
}
const chunks = results.values().next().value[0].chunks;
console.log(
  `\nBuild rate at ${chunks.toLocaleString("en")} chunks (SciFact x ${replicas}, embedding excluded), ${rounds} builds each, in turns; medians`,
);
console.log(
  "| entry | chunks/s (wall) | store seconds | CPU seconds (process) | CPU seconds (store: the batches' making left out) | peak RSS MB | load (1 min) during |",
);
console.log("|---|---|---|---|---|---|---|");
for (const [name, runs] of results) {
  const seconds = median(runs.map((run) => run.seconds));
  const loads = runs.flatMap((run) => run.load);
  console.log(
    `| ${name} | ${Math.round(chunks / seconds).toLocaleString("en")} | ${seconds.toFixed(1)} | ${median(runs.map((run) => run.cpuSeconds)).toFixed(1)} | ${median(runs.map((run) => run.storeCpuSeconds)).toFixed(1)} | ${Math.round(median(runs.map((run) => run.peakRssMb)))} | ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} |`,
  );
}
const [first, ...others] = [...results.keys()];
for (const other of others) {
  // The first entry's rate as a multiple of the other's: the other's seconds over the first's.
  const ratio = (pick) => median(results.get(other).map(pick)) / median(results.get(first).map(pick));
  console.log(
    `${first}'s rate is ${ratio((run) => run.seconds).toFixed(2)}x ${other}'s (wall), ${ratio((run) => run.cpuSeconds).toFixed(2)}x (CPU), ${ratio((run) => run.storeCpuSeconds).toFixed(2)}x (store CPU)`,
  );
}
