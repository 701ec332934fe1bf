// Issue 14, item 4: our local index side by side with LanceDB and SQLite (FTS5 + sqlite-vec)
// on the same chunks and the same vectors, at SciFact x 20 (~100k chunks) and x 200 (~1M).
// Each store and each phase (build, then open + queries) runs in a child process of its own.
// The peers are installed on demand from this folder's own lockfile (outside the pnpm
// workspace, so CI never installs them); when that fails this prints "SKIPPED, <why>" and
// exits 0.
//
// Environment: BENCH_SKIP_PEERS=1 skips; BENCH_PEER_REPLICAS (default "20,200");
// BENCH_PEER_QUERIES (default 100, the first queries of queries.jsonl); BENCH_PEER_STORES
// (default "ours,lancedb,sqlite"); BENCH_PEER_TIMEOUT_S (default 3600, per child process).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bytesIn, installPeers, runChild } from "./peers.mjs";

const log = (line) => console.error(`[index-peers] ${line}`);

function skip(why) {
  console.log(`\n## Index peers (issue 14): SKIPPED, ${why}`);
  process.exit(0);
}

if (process.env.BENCH_SKIP_PEERS === "1") skip("BENCH_SKIP_PEERS=1");
const replicaList = (process.env.BENCH_PEER_REPLICAS ?? "20,200").split(",").map((text) => Number(text.trim()));
if (replicaList.some((value) => !Number.isInteger(value) || value <= 0)) {
  throw new Error(
    `BENCH_PEER_REPLICAS must be positive integers separated by commas, got ${JSON.stringify(process.env.BENCH_PEER_REPLICAS)}`,
  );
}
const queryCount = Number(process.env.BENCH_PEER_QUERIES ?? 100);
if (!Number.isInteger(queryCount) || queryCount <= 0)
  throw new Error(`BENCH_PEER_QUERIES must be a positive integer, got ${process.env.BENCH_PEER_QUERIES}`);
const timeoutMs = Number(process.env.BENCH_PEER_TIMEOUT_S ?? 3600) * 1000;
const stores = (process.env.BENCH_PEER_STORES ?? "ours,lancedb,sqlite").split(",").map((name) => name.trim());
if (stores[0] !== "ours" || stores.some((name) => !["ours", "lancedb", "sqlite"].includes(name))) {
  throw new Error(`BENCH_PEER_STORES must start with ours and name only ours, lancedb, sqlite; got ${stores.join(",")}`);
}

const { codeRoot, datasetDirectory, ensureVectors } = await import("./corpus.mjs");
for (const built of ["packages/search-port/dist/local/index.js", "packages/embeddings/dist/index.js"]) {
  if (!existsSync(join(codeRoot, built))) skip(`${built} is missing (run pnpm build first)`);
}
for (const file of ["corpus.jsonl", "queries.jsonl"]) {
  if (!existsSync(join(datasetDirectory, file))) skip(`${join(datasetDirectory, file)} is missing`);
}

const notInstalled = installPeers();
if (notInstalled !== undefined) skip(notInstalled);

const child = (args) => runChild("store-child.mjs", args, timeoutMs);

const names = { ours: "ours (local)", lancedb: "LanceDB 0.31.0", sqlite: "SQLite FTS5 + sqlite-vec" };
const fixed = (value, digits) => (value === undefined ? "–" : value.toFixed(digits));

function overlap(ours, theirs) {
  let shared = 0;
  let total = 0;
  ours.forEach((top, index) => {
    const other = new Set(theirs[index]);
    shared += top.filter((id) => other.has(id)).length;
    total += Math.max(top.length, 1);
  });
  return shared / total;
}

function printTable(total, replicas, results) {
  const columns = stores.map((name) => ({ name, result: results[name] }));
  const ours = results.ours;
  const header = ["measure", names.ours];
  for (const { name } of columns.slice(1)) header.push(names[name], `${name} / ours`);
  console.log(
    `\n## Index peers: ${total} chunks (SciFact x ${replicas}), ${queryCount} queries, top 10, same vectors (offline embedder)\n`,
  );
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  const row = (label, read, digits, { ratio = true } = {}) => {
    const base = read(ours);
    const cells = [label, fixed(base, digits)];
    for (const { result } of columns.slice(1)) {
      const value = read(result);
      cells.push(fixed(value, digits));
      if (ratio) cells.push(value === undefined || base === undefined || base === 0 ? "–" : `${(value / base).toFixed(2)}x`);
      else cells.push("");
    }
    console.log(`| ${cells.join(" | ")} |`);
  };
  const get = (read) => (result) => (result === undefined || result.failed !== undefined ? undefined : read(result));
  row(
    "build, chunks/s",
    get((r) => r.build?.chunks / r.build?.seconds),
    0,
  );
  row(
    "build, peak RSS (MB)",
    get((r) => r.build?.peakRssMb),
    0,
  );
  row(
    "on disk (MB)",
    get((r) => r.diskMb),
    0,
  );
  row(
    "open (ms)",
    get((r) => r.query?.openMs),
    1,
  );
  row(
    "RSS after open (MB)",
    get((r) => r.query?.rssAfterOpenMb),
    0,
  );
  row(
    "RSS after the queries (MB)",
    get((r) => r.query?.rssAfterQueriesMb),
    0,
  );
  for (const mode of ["lexical", "dense", "hybrid"]) {
    row(
      `${mode} p50 (ms)`,
      get((r) => r.query?.modes[mode].p50),
      2,
    );
    row(
      `${mode} p95 (ms)`,
      get((r) => r.query?.modes[mode].p95),
      2,
    );
  }
  for (const mode of ["lexical", "dense", "hybrid"]) {
    row(
      `${mode}: queries with under 10 hits`,
      get((r) => r.query?.modes[mode].short),
      0,
      { ratio: false },
    );
    row(
      `${mode}: top-10 overlap with ours`,
      get((r) => overlap(ours.query.modes[mode].tops, r.query.modes[mode].tops)),
      2,
      { ratio: false },
    );
  }
  for (const { name, result } of columns) {
    if (result?.failed !== undefined) console.log(`\n- ${names[name]}: ${result.failed}`);
  }
}

for (const replicas of replicaList) {
  const cached = await ensureVectors(replicas, queryCount, log);
  const workspace = mkdtempSync(join(tmpdir(), `index-peers-x${replicas}-`));
  const results = {};
  try {
    for (const name of stores) {
      const directory = join(workspace, name);
      log(`${name}: building ${cached.total} chunks ...`);
      const build = child(["build", name, directory, String(replicas)]);
      if (build.failed !== undefined) {
        results[name] = { failed: `build ${build.failed}` };
        continue;
      }
      const diskMb = bytesIn(directory) / 1024 / 1024;
      log(`${name}: built in ${build.seconds.toFixed(1)} s; opening and querying ...`);
      const query = child(["query", name, directory, String(replicas), "10"]);
      results[name] = query.failed !== undefined ? { failed: `query ${query.failed}`, build, diskMb } : { build, diskMb, query };
      if (name === "ours" && results.ours.failed !== undefined) break;
      rmSync(directory, { recursive: true, force: true });
    }
    if (results.ours?.failed !== undefined) console.log(`\n## Index peers, SciFact x ${replicas}: ours failed (${results.ours.failed})`);
    else printTable(cached.total, replicas, results);
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
console.log(
  "\nratios are peer / ours (over 1: the peer is slower, bigger, or for chunks/s faster). " +
    "Ours: hybrid = linear fusion (the port's default dense weights) over all chunks, dense = int8 exact scan; " +
    "LanceDB: FTS index, flat (exact) float32 cosine, hybrid = its RRF reranker; " +
    "SQLite: FTS5 bm25 over ORed words, vec0 exact float32 cosine, hybrid = RRF of top 50 + top 50. " +
    "Query embedding is excluded everywhere (cached vectors).",
);
