// Query time of an index in segments against the same records merged into one (issue 36:
// "query p50 after 100 small commits, before any merge: within 1.5x of a merged index").
// Run after `pnpm --filter @lookup-knowledge/search-port build`:
//   node packages/search-port/bench/composed-search.mjs
// Prints numbers, asserts nothing.
//
// 100k synthetic records (Zipf words, 64-dimension random vectors) in memory, as two indexes of
// the same live records: one segment (`mergeSnapshot`), and one large segment plus 100 small
// ones with some records deleted and some replaced by later segments (`composeSnapshot`). The
// two are checked to give the same hits first. Then 100 random queries, lexical only and
// hybrid (dense weight 0.3), in interleaved rounds (merged, then segmented, then the other
// way round), on fresh snapshots: the first round (each term's block bounds computed, and for
// the segmented index its postings gathered from the segments, the first time) is reported on
// its own, the later ones as p50 and p95 of every query.
//
// Environment: BENCH_RECORDS (default 100000), BENCH_SMALL_SEGMENTS (100), BENCH_ROUNDS (5).
import { performance } from "node:perf_hooks";
import { quantiseVector, strideFor } from "../dist/local/dense/dense-matrix.js";
import { searchSnapshot } from "../dist/local/reader/search-snapshot.js";
import { composeSnapshot } from "../dist/local/segments/compose-snapshot.js";
import { emptySnapshot } from "../dist/local/snapshot/index-snapshot.js";
import { mergeSnapshot } from "../dist/local/snapshot/merge-snapshot.js";
import { PendingChanges } from "../dist/local/snapshot/pending-changes.js";
import { seeded } from "./seeded-random.mjs";

const total = Number(process.env.BENCH_RECORDS ?? 100_000);
const smallSegments = Number(process.env.BENCH_SMALL_SEGMENTS ?? 100);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
if (!Number.isInteger(rounds) || rounds < 2) {
  throw new Error(`BENCH_ROUNDS must be a whole number of at least 2 (the first round is reported apart), got ${process.env.BENCH_ROUNDS}`);
}
const dimension = 64;
const vocabularySize = 30_000;
const denseFloor = 0.2;

const next = seeded(36);
const words = Array.from({ length: vocabularySize }, (_, index) => `w${index.toString(36)}`);
const zipfWord = () => words[Math.floor(vocabularySize * next() ** 4)];
const randomVector = () => Array.from({ length: dimension }, () => next() * 2 - 1);

function randomRecord(id) {
  const length = 20 + Math.floor(80 * next());
  return { id, docId: id.split("#")[0], terms: Array.from({ length }, zipfWord), vector: randomVector() };
}

/** A snapshot in memory of `records`, as a writer's segment holds them. */
function snapshotOf(records) {
  const pending = new PendingChanges(0);
  const stride = strideFor(dimension);
  for (const record of records) {
    const codes = new Int8Array(stride);
    const inverseNorm = quantiseVector(record.vector, codes);
    pending.added.set(record.id, {
      id: record.id,
      docId: record.docId,
      content: record.terms.join(" "),
      metadataText: JSON.stringify({ docId: record.docId }),
      ...pending.countTerms(record.terms),
      length: record.terms.length,
      codes,
      inverseNorm,
    });
  }
  return mergeSnapshot(emptySnapshot(), pending, dimension);
}

// One large segment, then small ones: each small commit replaces a few records of earlier
// segments (deleting them there) and adds new ones.
const started = performance.now();
const smallSize = Math.floor((0.1 * total) / smallSegments);
const largeSize = total - smallSize * smallSegments;
const segments = [Array.from({ length: largeSize }, (_, index) => randomRecord(`doc${index}#chunk-0`))];
const where = new Map(segments[0].map((record, slot) => [record.id, { segment: 0, slot }]));
const deletions = [new Uint8Array(largeSize)];
let fresh = largeSize;
for (let segment = 1; segment <= smallSegments; segment += 1) {
  const list = [];
  for (let index = 0; index < smallSize; index += 1) {
    // A fifth of a small commit's records replace existing ones; the rest are new.
    const id = next() < 0.2 ? `doc${Math.floor(fresh * next())}#chunk-0` : `doc${fresh++}#chunk-0`;
    if (list.some((record) => record.id === id)) continue;
    const before = where.get(id);
    if (before !== undefined) deletions[before.segment][before.slot] = 1;
    where.set(id, { segment, slot: list.length });
    list.push(randomRecord(id));
  }
  segments.push(list);
  deletions.push(new Uint8Array(list.length));
}
// And some plain deletes, 1% of the large segment.
for (let slot = 0; slot < largeSize; slot += 1) if (next() < 0.01) deletions[0][slot] = 1;
const parts = segments.map((list, index) => ({ snapshot: snapshotOf(list), deleted: deletions[index] }));
const live = segments.flatMap((list, index) => list.filter((_, slot) => deletions[index][slot] !== 1));
const merged = snapshotOf(live);
const segmented = composeSnapshot(parts);
const deleted = deletions.reduce((sum, flags) => sum + flags.reduce((count, flag) => count + flag, 0), 0);
console.log(
  `built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${live.length} live records; segmented: 1 x ${largeSize} + ${smallSegments} x ${smallSize} records, ${deleted} of them deleted`,
);

// What a merge of the segments reads: the live records' lexicon, keys and vectors as arrays
// (median of three fresh compositions: the first runs amid the build's garbage).
{
  const took = { lexicon: [], keys: [], vectors: [] };
  let postings = 0;
  for (let run = 0; run < 3; run += 1) {
    const fresh = composeSnapshot(parts);
    let start = performance.now();
    postings = fresh.lexicon.arrays().postingSlots.length;
    took.lexicon.push(performance.now() - start);
    start = performance.now();
    fresh.keys.arrays();
    took.keys.push(performance.now() - start);
    start = performance.now();
    void fresh.vectors;
    took.vectors.push(performance.now() - start);
  }
  const median = (values) => [...values].sort((left, right) => left - right)[1].toFixed(0);
  console.log(
    `a merge's read of the segments (median of 3): lexicon ${median(took.lexicon)} ms (${postings} postings), keys ${median(took.keys)} ms, vectors ${median(took.vectors)} ms`,
  );
}

const queries = Array.from({ length: 100 }, () => ({
  terms: Array.from({ length: 2 + Math.floor(5 * next()) }, zipfWord),
  vector: randomVector(),
}));
const kinds = {
  lexical: (query) => ({ terms: query.terms, denseWeight: 0, topK: 10 }),
  hybrid: (query) => ({ terms: query.terms, vector: query.vector, denseWeight: 0.3, topK: 10 }),
};

// The same hits and scores, or the timings mean nothing.
for (const query of queries.slice(0, 10)) {
  for (const kind of Object.values(kinds)) {
    const left = searchSnapshot(merged, kind(query), denseFloor);
    const right = searchSnapshot(segmented, kind(query), denseFloor);
    if (JSON.stringify(left) !== JSON.stringify(right)) throw new Error("the segmented index answered otherwise than the merged one");
  }
}

function time(snapshot, query) {
  const start = performance.now();
  searchSnapshot(snapshot, query, denseFloor);
  return performance.now() - start;
}

const quantile = (values, share) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};

for (const [name, kind] of Object.entries(kinds)) {
  // Fresh snapshots per kind: the first round of the segmented one gathers every term's
  // postings from the segments, that of both computes every term's block bounds.
  const fromSegments = composeSnapshot(parts);
  const fromMerged = { count: merged.count, keys: merged.keys, lexicon: merged.lexicon, vectors: merged.vectors, records: merged.records };
  const times = { merged: [], segmented: [], firstMerged: [], firstSegmented: [] };
  for (let round = 0; round < rounds; round += 1) {
    queries.forEach((query, index) => {
      const mergedFirst = (round + index) % 2 === 0;
      const order = mergedFirst ? ["merged", "segmented"] : ["segmented", "merged"];
      for (const which of order) {
        const took = time(which === "merged" ? fromMerged : fromSegments, kind(query));
        if (round === 0) times[which === "merged" ? "firstMerged" : "firstSegmented"].push(took);
        else times[which].push(took);
      }
    });
  }
  const p50 = (values) => quantile(values, 0.5);
  const line = (label, mergedTimes, segmentedTimes) =>
    `${name.padEnd(8)} ${label.padEnd(12)} merged p50 ${p50(mergedTimes).toFixed(3)} ms, p95 ${quantile(mergedTimes, 0.95).toFixed(3)} ms; segmented p50 ${p50(segmentedTimes).toFixed(3)} ms, p95 ${quantile(segmentedTimes, 0.95).toFixed(3)} ms; ratio of p50s ${(p50(segmentedTimes) / p50(mergedTimes)).toFixed(2)}x`;
  console.log(line("first round", times.firstMerged, times.firstSegmented));
  console.log(line(`${rounds - 1} rounds`, times.merged, times.segmented));
}
