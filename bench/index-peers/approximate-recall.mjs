// Recall@10 and speed of the approximate dense search (option `approximateDense`) against the
// exact one, on a folder store-child.mjs built, with the cached query vectors:
//   node approximate-recall.mjs <directory>/index <replicas> <candidates,...>
// (ROUNDS, default 3; MODES=dense or MODES=hybrid runs one mode only)
// For each mode (dense: denseWeight 1, denseFloor 0; hybrid: the defaults) it opens the exact
// port, then one approximate port per candidate count, one after the other, and prints for
// each: recall@10 (the share of the exact top 10 the approximate top 10 holds) on the dev
// half of the queries (odd positions, as apps/eval/src/split.ts splits odd ids) and on the
// test half (even positions), the share of queries whose returned scores equal the exact
// scores of those hits, and p50 / p95 over every query and round. `answerability: false`,
// so a hit's score is its fused score (the model would rescale a list by its best hit's
// signals, which look at the best dense score over every slot).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cachedQueryEmbeddings, codeRoot } from "./corpus.mjs";

const { openLocalSearchPort } = await import(pathToFileURL(join(codeRoot, "packages/search-port/dist/local/index.js")).href);
const [directory, replicasText, candidatesText] = process.argv.slice(2);
const candidateCounts = (candidatesText ?? "").split(",").map(Number);
if (directory === undefined || !(Number(replicasText) > 0) || !candidateCounts.every((count) => count > 0)) {
  throw new Error(`usage: approximate-recall.mjs <index folder> <replicas> <candidates,...>, got ${process.argv.slice(2).join(" ")}`);
}
const { queries, embeddings } = await cachedQueryEmbeddings(Number(replicasText), "approximate-recall.mjs");
const modes = { dense: { denseWeight: 1, denseFloor: 0 }, hybrid: {} };
if (process.env.MODES) for (const m of Object.keys(modes)) if (!process.env.MODES.split(",").includes(m)) delete modes[m];
const rounds = Number(process.env.ROUNDS ?? 3);

/** Every query's top 10 (ids and scores) and the timings of `rounds` rounds, on a port opened with `options`. */
async function run(options) {
  let started = performance.now();
  const port = await openLocalSearchPort({ directory, embeddings, minScore: 0, answerability: false, ...options });
  const lists = [];
  for (const query of queries.slice(0, 1)) await port.search({ query: query.text, topK: 10 });
  const firstMs = performance.now() - started;
  const times = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const [position, query] of queries.entries()) {
      started = performance.now();
      const hits = await port.search({ query: query.text, topK: 10 });
      times.push(performance.now() - started);
      if (round === 0) lists[position] = hits;
    }
  }
  await port.close();
  times.sort((left, right) => left - right);
  const at = (share) => (times[Math.min(times.length - 1, Math.floor(share * times.length))] ?? 0).toFixed(2);
  return { lists, firstMs, p50: at(0.5), p95: at(0.95) };
}

function recall(exact, approximate, half) {
  let found = 0;
  let total = 0;
  for (const [position, hits] of exact.entries()) {
    if (position % 2 !== (half === "dev" ? 1 : 0)) continue;
    const got = new Set(approximate[position].map((hit) => hit.id));
    for (const hit of hits) found += got.has(hit.id) ? 1 : 0;
    total += hits.length;
  }
  return total === 0 ? 1 : found / total;
}

/** The share of queries whose every approximate hit that the exact list holds has the exact list's score. */
function exactScores(exact, approximate) {
  let same = 0;
  for (const [position, hits] of exact.entries()) {
    const scores = new Map(hits.map((hit) => [hit.id, hit.score]));
    const shared = approximate[position].filter((hit) => scores.has(hit.id));
    if (shared.length === hits.length && shared.every((hit) => scores.get(hit.id) === hit.score)) same += 1;
  }
  return same / exact.length;
}

const rssMb = () => (process.memoryUsage().rss / 1048576).toFixed(0);
for (const [mode, options] of Object.entries(modes)) {
  const exact = await run(options);
  console.log(
    `${mode} exact: open + first query ${exact.firstMs.toFixed(0)} ms, p50 ${exact.p50} ms, p95 ${exact.p95} ms; RSS ${rssMb()} MB`,
  );
  for (const candidates of candidateCounts) {
    const approximate = await run({ ...options, approximateDense: { candidates } });
    console.log(
      `${mode} approximate ${candidates}: open + first query (sketch built) ${approximate.firstMs.toFixed(0)} ms, ` +
        `p50 ${approximate.p50} ms, p95 ${approximate.p95} ms, recall@10 dev ${recall(exact.lists, approximate.lists, "dev").toFixed(3)}, ` +
        `test ${recall(exact.lists, approximate.lists, "test").toFixed(3)}, exact top 10 and scores ${(exactScores(exact.lists, approximate.lists) * 100).toFixed(0)}% of queries; RSS ${rssMb()} MB`,
    );
  }
}
