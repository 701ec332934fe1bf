// Issue 36's targets for an index that grows by segments, measured on SciFact replicas with
// the cached vectors, through the public API of `@lookup-knowledge/search-port/local` only, so
// that the same script measures the index before segments and after:
//   1. a one-document change (deleteDocuments + upsert of its chunks) and its commit on an index
//      of N chunks: commit wall time and the bytes written into the folder;
//   2. query p50 (lexical, dense, hybrid; top 10) after 100 such commits, against a merged
//      index of the same records (`optimize()` when the port has one, else a fresh build);
//   3. build rate (embedding excluded) and build peak RSS, beside LanceDB and SQLite.
// Every build, change run and query run is a child process of its own (peak RSS its own).
//
//   node bench/index-peers/segments.mjs
//
// Environment: BENCH_SEGMENT_CHUNKS (default 100000; rounded up to whole SciFact replicas of
// 5,183 chunks); BENCH_SEGMENT_ROUNDS (default 3: builds per store and query runs per index,
// interleaved); BENCH_SEGMENT_CHANGES (default 5: one-document commits timed for 1);
// BENCH_SEGMENT_COMMITS (default 100: small commits for 2); BENCH_SEGMENT_QUERIES (default
// 100); BENCH_SEGMENT_STORES (default "ours,lancedb,sqlite"); BENCH_SEGMENT_JSON (a file for
// the raw results); BENCH_SEGMENT_PARTS (default "all"; "build" runs part 3 alone);
// BENCH_PEER_TIMEOUT_S (default 3600, per child); BENCH_CODE_ROOT (measure
// a copy of the repository built at another commit).
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { codeRoot, datasetDirectory, ensureVectors, readScifact } from "./corpus.mjs";
import { folderState } from "./folder-writes.mjs";
import { bytesIn, installPeers, runChild } from "./peers.mjs";
import { printSegmentTables } from "./segments-table.mjs";

const log = (line) => console.error(`[segments] ${line}`);

function wholeNumber(name, fallback, least) {
  const text = process.env[name];
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(value) || value < least)
    throw new Error(`${name} must be a whole number of at least ${least}, got ${JSON.stringify(text)}`);
  return value;
}

const wantedChunks = wholeNumber("BENCH_SEGMENT_CHUNKS", 100_000, 1);
const rounds = wholeNumber("BENCH_SEGMENT_ROUNDS", 3, 1);
const changes = wholeNumber("BENCH_SEGMENT_CHANGES", 5, 1);
const smallCommits = wholeNumber("BENCH_SEGMENT_COMMITS", 100, 1);
const queryCount = wholeNumber("BENCH_SEGMENT_QUERIES", 100, 1);
const timeoutMs = wholeNumber("BENCH_PEER_TIMEOUT_S", 3600, 1) * 1000;
const parts = process.env.BENCH_SEGMENT_PARTS ?? "all";
if (!["all", "build"].includes(parts)) throw new Error(`BENCH_SEGMENT_PARTS must be all or build, got ${JSON.stringify(parts)}`);
const stores = (process.env.BENCH_SEGMENT_STORES ?? "ours,lancedb,sqlite").split(",").map((name) => name.trim());
if (stores[0] !== "ours" || stores.some((name) => !["ours", "lancedb", "sqlite"].includes(name))) {
  throw new Error(`BENCH_SEGMENT_STORES must start with ours and name only ours, lancedb, sqlite; got ${stores.join(",")}`);
}

for (const built of ["packages/search-port/dist/local/index.js", "packages/embeddings/dist/index.js"]) {
  if (!existsSync(join(codeRoot, built))) throw new Error(`${join(codeRoot, built)} is missing (run pnpm build first)`);
}
for (const file of ["corpus.jsonl", "queries.jsonl"]) {
  if (!existsSync(join(datasetDirectory, file))) throw new Error(`${join(datasetDirectory, file)} is missing (BENCH_SCIFACT_DIR)`);
}
const documents = readScifact().corpus.length;
const replicas = Math.ceil(wantedChunks / documents);
if (changes + smallCommits > documents * replicas) throw new Error(`${changes + smallCommits} edits need as many documents`);

const peers = stores.filter((name) => name !== "ours");
const notInstalled = peers.length > 0 ? installPeers() : undefined;
if (notInstalled !== undefined) log(`peers left out: ${notInstalled}`);
const built = notInstalled === undefined ? stores : ["ours"];
const cached = await ensureVectors(replicas, queryCount, log);
const loadBefore = loadavg();
const workspace = mkdtempSync(join(tmpdir(), `segments-x${replicas}-`));
const replicasText = String(replicas);

function must(result, what) {
  if (result.failed !== undefined) throw new Error(`${what} failed: ${result.failed}`);
  return result;
}

/** Builds every store `rounds` times, taking turns (the first store of each round rotates); keeps our first index as the base. */
function buildAll() {
  const builds = Object.fromEntries(built.map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < built.length; turn += 1) {
      const name = built[(round + turn) % built.length];
      const directory = join(workspace, `build-${name}-${round}`);
      log(`build ${round + 1}/${rounds}: ${name}, ${cached.total} chunks ...`);
      const result = runChild("store-child.mjs", ["build", name, directory, replicasText], timeoutMs);
      builds[name].push(result.failed === undefined ? { ...result, diskMb: bytesIn(directory) / 1048576 } : result);
      if (name !== "ours" || round !== 0) rmSync(directory, { recursive: true, force: true });
      else {
        must(result, "our first build");
        renameSync(directory, join(workspace, "base"));
      }
    }
  }
  return builds;
}

/** The merged index of the base's records after every edit: optimize() on a copy, else a fresh build. */
function mergedIndex(edits) {
  const directory = join(workspace, "merged");
  cpSync(join(workspace, "base"), directory, { recursive: true });
  log("merged index: optimize() on a copy of the edited index ...");
  const optimized = must(runChild("segment-child.mjs", ["optimize", join(directory, "index"), replicasText], timeoutMs), "optimize");
  if (optimized.unsupported !== true) return { directory, how: "optimize", ...optimized };
  rmSync(directory, { recursive: true, force: true });
  log(`merged index: the port has no optimize(); a fresh build with the ${edits} edits ...`);
  const build = must(runChild("store-child.mjs", ["build", "ours", directory, replicasText, String(edits)], timeoutMs), "fresh build");
  return { directory, how: "fresh build", build };
}

/** Query runs on the edited index and the merged one, taking turns (which goes first alternates per round). */
function queryBoth(mergedDirectory) {
  const runs = { commits: [], merged: [] };
  const directories = { commits: join(workspace, "base"), merged: mergedDirectory };
  for (let round = 0; round < rounds; round += 1) {
    for (const which of round % 2 === 0 ? ["commits", "merged"] : ["merged", "commits"]) {
      log(`queries ${round + 1}/${rounds}: the ${which === "commits" ? "edited" : "merged"} index ...`);
      const args = ["query", "ours", directories[which], replicasText, "10"];
      runs[which].push(must(runChild("store-child.mjs", args, timeoutMs), `queries on the ${which} index`));
    }
  }
  return runs;
}

/** Parts 1 and 2 on our first build (the base): the one-document changes, the small commits and the merged index queried beside it. */
function changesAndQueries() {
  const baseIndex = join(workspace, "base", "index");
  log(`one-document changes: ${changes} commits ...`);
  const change = must(runChild("segment-child.mjs", ["edit", baseIndex, replicasText, "0", String(changes)], timeoutMs), "changes");
  log(`small commits: ${smallCommits} ...`);
  const commits = must(
    runChild("segment-child.mjs", ["edit", baseIndex, replicasText, String(changes), String(smallCommits)], timeoutMs),
    "small commits",
  );
  const merged = mergedIndex(changes + smallCommits);
  const folders = {
    commits: { files: commits.files, diskMb: bytesIn(baseIndex) / 1048576 },
    merged: { files: folderState(join(merged.directory, "index")).size, diskMb: bytesIn(join(merged.directory, "index")) / 1048576 },
  };
  return { change, commits, merged, folders, queries: queryBoth(merged.directory) };
}

try {
  const builds = buildAll();
  const results = {
    chunks: cached.total,
    replicas,
    rounds,
    stores: built,
    peersLeftOut: notInstalled,
    load: { before: loadBefore, after: undefined },
    builds,
    ...(parts === "all" ? changesAndQueries() : {}),
  };
  results.load.after = loadavg();
  if (process.env.BENCH_SEGMENT_JSON !== undefined) writeFileSync(process.env.BENCH_SEGMENT_JSON, JSON.stringify(results));
  printSegmentTables(results);
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
