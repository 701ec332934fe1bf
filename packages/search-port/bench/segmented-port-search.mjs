// Query time of a local index on disk after many small commits (its segments as the writer
// left them, small ones folded as commits went) against the same index after `optimize` (one
// segment), through the port as a host uses it. Companion of composed-search.mjs, which
// compares the snapshots in memory. Run after `pnpm --filter @lookup-knowledge/search-port build`:
//   node packages/search-port/bench/segmented-port-search.mjs
// Prints numbers, asserts nothing.
//
// 100k synthetic records (Zipf words, a hashed 64-dimension embedder): one commit of 90%, then
// 100 commits of 100 records each, a fifth of them replacing earlier records. The folder is
// copied, the copy optimised; then 100 queries, lexical only and hybrid, on a reader of each,
// in interleaved rounds; the first round (cold: postings and vectors read from the files) on
// its own, the later ones as p50 and p95.
//
// Environment: BENCH_RECORDS (default 100000), BENCH_SMALL_COMMITS (100), BENCH_ROUNDS (5).
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openLocalSearchPort } from "../dist/local/index.js";
import { seeded } from "./seeded-random.mjs";

const total = Number(process.env.BENCH_RECORDS ?? 100_000);
const smallCommits = Number(process.env.BENCH_SMALL_COMMITS ?? 100);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
if (!Number.isInteger(rounds) || rounds < 2) {
  throw new Error(`BENCH_ROUNDS must be a whole number of at least 2 (the first round is reported apart), got ${process.env.BENCH_ROUNDS}`);
}
const dimension = 64;

/** Letters only, so the analyser keeps each word whole. */
function word(index) {
  let text = "";
  let rest = index + 26 * 26;
  while (rest > 0) {
    text += String.fromCharCode(97 + (rest % 26));
    rest = Math.floor(rest / 26);
  }
  return `q${text}`;
}

const next = seeded(361);
const words = Array.from({ length: 30_000 }, (_, index) => word(index));
const zipfWord = () => words[Math.floor(words.length * next() ** 4)];

/** Words hashed into `dimension` buckets, unit length: texts sharing words have a positive cosine. */
function embed(text) {
  const vector = new Array(dimension).fill(0);
  for (const token of text.split(" ")) {
    let hash = 2_166_136_261;
    for (let index = 0; index < token.length; index += 1) hash = Math.imul(hash ^ token.charCodeAt(index), 16_777_619);
    vector[(hash >>> 0) % dimension] += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}
const embeddings = {
  identity: { id: "bench/hash", version: "1", dimension },
  embedQuery: async (text) => embed(text),
  embedDocuments: async (texts) => texts.map(embed),
};

const record = (index) => {
  const content = Array.from({ length: 20 + Math.floor(80 * next()) }, zipfWord).join(" ");
  return { id: `doc${index}#chunk-0`, content, metadata: { docId: `doc${index}` } };
};

const workspace = mkdtempSync(join(tmpdir(), "segmented-port-bench-"));
const segmentedFolder = join(workspace, "segmented");
const optimisedFolder = join(workspace, "optimised");
try {
  const started = performance.now();
  const writer = await openLocalSearchPort({ directory: segmentedFolder, mode: "write", embeddings });
  const smallSize = Math.floor((0.1 * total) / smallCommits);
  let created = total - smallSize * smallCommits;
  for (let start = 0; start < created; start += 10_000) {
    await writer.upsert(Array.from({ length: Math.min(10_000, created - start) }, (_, index) => record(start + index)));
  }
  await writer.commit();
  const commitTimes = [];
  for (let commit = 0; commit < smallCommits; commit += 1) {
    const batch = Array.from({ length: smallSize }, () => record(next() < 0.2 ? Math.floor(created * next()) : created++));
    await writer.upsert(batch);
    const commitStart = performance.now();
    await writer.commit();
    commitTimes.push(performance.now() - commitStart);
  }
  await writer.close();
  const segments = JSON.parse(readFileSync(join(segmentedFolder, "manifest.json"), "utf8")).segments ?? [];
  commitTimes.sort((left, right) => left - right);
  console.log(
    `built in ${((performance.now() - started) / 1000).toFixed(1)} s; small commits p50 ${commitTimes[commitTimes.length >> 1].toFixed(1)} ms; ${segments.length} segments: ${segments.map((segment) => `${segment.chunks}-${segment.deleted}`).join(" ")}`,
  );
  cpSync(segmentedFolder, optimisedFolder, { recursive: true });
  const optimiser = await openLocalSearchPort({ directory: optimisedFolder, mode: "write", embeddings });
  await optimiser.optimize();
  await optimiser.close();

  const queries = Array.from({ length: 100 }, () => Array.from({ length: 2 + Math.floor(5 * next()) }, zipfWord).join(" "));
  const quantile = (values, share) =>
    [...values].sort((left, right) => left - right)[Math.min(values.length - 1, Math.floor(share * values.length))];
  for (const [name, denseWeight] of [
    ["lexical", 0],
    ["hybrid", 0.3],
  ]) {
    const ports = {
      optimised: await openLocalSearchPort({ directory: optimisedFolder, embeddings, denseWeight, minScore: 0 }),
      segmented: await openLocalSearchPort({ directory: segmentedFolder, embeddings, denseWeight, minScore: 0 }),
    };
    const times = { optimised: [], segmented: [], firstOptimised: [], firstSegmented: [] };
    for (let round = 0; round < rounds; round += 1) {
      for (const [index, query] of queries.entries()) {
        const order = (round + index) % 2 === 0 ? ["optimised", "segmented"] : ["segmented", "optimised"];
        for (const which of order) {
          const start = performance.now();
          await ports[which].search({ query, topK: 10 });
          const took = performance.now() - start;
          (round === 0 ? times[which === "optimised" ? "firstOptimised" : "firstSegmented"] : times[which]).push(took);
        }
      }
    }
    for (const port of Object.values(ports)) await port.close();
    const p50 = (values) => quantile(values, 0.5);
    const line = (label, optimised, segmented) =>
      `${name.padEnd(8)} ${label.padEnd(12)} optimised p50 ${p50(optimised).toFixed(3)} ms, p95 ${quantile(optimised, 0.95).toFixed(3)} ms; segmented p50 ${p50(segmented).toFixed(3)} ms, p95 ${quantile(segmented, 0.95).toFixed(3)} ms; ratio of p50s ${(p50(segmented) / p50(optimised)).toFixed(2)}x`;
    console.log(line("first round", times.firstOptimised, times.firstSegmented));
    console.log(line(`${rounds - 1} rounds`, times.optimised, times.segmented));
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
