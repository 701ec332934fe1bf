// One store, one phase, in a process of its own, so that open time and RSS are its own:
//   node store-child.mjs build <store> <directory> <replicas> [edits]
//   node store-child.mjs query <store> <directory> <replicas> <k>
// Prints one JSON line on stdout; everything else goes to stderr. A build is fed its chunks
// and vectors in batches made on the fly (`chunkBatches`), and prints the RSS before it. `edits` (default 0) builds
// the chunks with the segments bench's edits 0 .. edits - 1 applied (edits.mjs).
import { readFileSync } from "node:fs";
import { chunkBatches, loadEmbedder, readScifact, vectorCachePath } from "./corpus.mjs";

const [phase, storeName, directory, replicasText, fifth] = process.argv.slice(2);
const replicas = Number(replicasText);
if (!["build", "query"].includes(phase) || !["ours", "lancedb", "sqlite"].includes(storeName) || !(replicas > 0)) {
  throw new Error(
    `usage: store-child.mjs build|query ours|lancedb|sqlite <directory> <replicas> [edits|k], got ${process.argv.slice(2).join(" ")}`,
  );
}
const store = await import(`./stores/${storeName}.mjs`);
const { identity } = await loadEmbedder();
// BENCH_VECTOR_REPLICAS (a divisor of replicas): the vectors of that many replicas, reused in
// turn past them (`chunkBatches`' vectorReplicas), for a size never embedded whole (10M chunks).
const vectorReplicas = Number(process.env.BENCH_VECTOR_REPLICAS ?? replicas);
const paths = vectorCachePath(vectorReplicas, identity);
const mb = (bytes) => bytes / 1024 / 1024;
/** Chunks a store is handed at a time (each store may write them in smaller batches of its own). */
const batchChunks = 10_000;

const percentile = (values, p) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};

if (phase === "build") {
  const { corpus } = readScifact();
  const edits = Number(fifth ?? 0);
  if (!Number.isInteger(edits) || edits < 0) throw new Error(`store-child.mjs build: edits must be a whole number, got ${fifth}`);
  // The chunks and their vectors are made batch by batch as the store asks for them (the
  // vector file is read at each batch's offset), so the peak RSS is the store's, not the corpus's.
  const total = corpus.length * replicas;
  const { dimension } = identity;
  const timing = { seconds: 0 };
  const batches = chunkBatches({ corpus, replicas, edits, vectorsPath: paths.vectors, dimension, batchChunks, timing, vectorReplicas });
  const rssBeforeMb = mb(process.memoryUsage().rss);
  const started = performance.now();
  await store.build({ directory, batches, dimension, identity });
  // The store's time: the making of the batches (generating the replicas, reading the vectors) left out.
  const seconds = (performance.now() - started) / 1000 - timing.seconds;
  const peakRssMb = mb(process.resourceUsage().maxRSS * 1024);
  console.log(
    JSON.stringify({ chunks: total, seconds, feedSeconds: timing.seconds, feedCpuSeconds: timing.cpuSeconds ?? 0, rssBeforeMb, peakRssMb }),
  );
} else {
  const k = Number(fifth ?? 10);
  const queries = JSON.parse(readFileSync(paths.queries, "utf8"));
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const opened = await store.open({ directory, identity, queries });
  const openMs = performance.now() - started;
  const rssAfterOpen = process.memoryUsage().rss;
  const modes = await opened.modes();
  const result = { openMs, rssBeforeOpenMb: mb(rssBefore), rssAfterOpenMb: mb(rssAfterOpen), modes: {} };
  // A store may search in fewer modes (LanceDB without vectors: lexical only).
  const names = ["lexical", "dense", "hybrid"].filter((mode) => mode in modes);
  // A warm-up of every mode on the first 10 queries (the first query of a mode may build
  // lazy state, and the JIT warms up), then one timed round over all queries in which the
  // modes take turns on each query, so that all three see the same machine load.
  for (const mode of names) for (const query of queries.slice(0, 10)) await modes[mode](query, k);
  const times = Object.fromEntries(names.map((mode) => [mode, []]));
  const tops = Object.fromEntries(names.map((mode) => [mode, []]));
  for (const query of queries) {
    for (const mode of names) {
      const began = performance.now();
      const ids = await modes[mode](query, k);
      times[mode].push(performance.now() - began);
      tops[mode].push(ids);
    }
  }
  for (const mode of names) {
    const short = tops[mode].filter((ids) => ids.length < k).length;
    result.modes[mode] = { p50: percentile(times[mode], 0.5), p95: percentile(times[mode], 0.95), short, tops: tops[mode] };
  }
  await modes.close();
  result.rssAfterQueriesMb = mb(process.memoryUsage().rss);
  console.log(JSON.stringify(result));
}
