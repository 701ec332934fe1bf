// Times the parts of one approximate dense search against the exact int8 scan, on the cached
// vectors alone (no index, no lexical pass), with the package's built internals:
//   node approximate-parts.mjs <replicas> [candidates]   (default 20000; 3 rounds of the cached queries)
// Prints the sketch's build time and, per query, the int8 scan of every row (`exact`), the
// sketch's estimates (`estimate`), choosing the candidates (`choose`) and their exact re-score (`rescore`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadEmbedder, codeRoot, vectorCachePath } from "./corpus.mjs";

const local = (file) => import(pathToFileURL(join(codeRoot, "packages/search-port/dist/local", file)).href);
const { DenseMatrix, quantiseVector } = await local("dense-matrix.js");
const { approximateDenseIndexOf } = await local("approximate-dense-index.js");
const { topIntegerCandidates } = await local("top-integer-candidates.js");
const replicas = Number(process.argv[2]);
const candidates = Number(process.argv[3] ?? 20_000);
if (!(replicas > 0) || !(candidates > 0))
  throw new Error(`usage: approximate-parts.mjs <replicas> [candidates], got ${process.argv.slice(2).join(" ")}`);
const { identity } = await loadEmbedder();
const paths = vectorCachePath(replicas, identity);
const queries = JSON.parse(readFileSync(paths.queries, "utf8"));
const dimension = identity.dimension;
const bytes = readFileSync(paths.vectors);
const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
const count = all.length / dimension;
const matrix = new DenseMatrix(count, dimension);
const codes = new Int8Array(matrix.stride);
for (let slot = 0; slot < count; slot += 1) {
  matrix.setRow(slot, codes, quantiseVector(all.subarray(slot * dimension, (slot + 1) * dimension), codes));
}
const started = performance.now();
const { sketch, rescorer } = approximateDenseIndexOf(matrix);
console.log(`${count} rows x ${dimension}: sketch built in ${(performance.now() - started).toFixed(0)} ms`);
const time = { exact: 0, estimate: 0, choose: 0, rescore: 0 };
const rounds = 3;
for (let round = 0; round < rounds; round += 1) {
  for (const query of queries) {
    const start = performance.now();
    matrix.dots(query.vector);
    const scanned = performance.now();
    const estimates = sketch.estimate(query.vector);
    const estimated = performance.now();
    const chosen = topIntegerCandidates(estimates, candidates, sketch.range.lowest, sketch.range.highest);
    const picked = performance.now();
    rescorer.dotsOf(query.vector, chosen);
    const done = performance.now();
    time.exact += scanned - start;
    time.estimate += estimated - scanned;
    time.choose += picked - estimated;
    time.rescore += done - picked;
  }
}
const mean = (total) => (total / (rounds * queries.length)).toFixed(2);
console.log(
  `mean per query, ${candidates} candidates: ${Object.entries(time)
    .map(([part, total]) => `${part} ${mean(total)} ms`)
    .join(", ")}`,
);
