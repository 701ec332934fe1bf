// Lexical first-use time alone (no dense or hybrid ports in between), for one index or
// several compared in one process:
//   node lexical-first-use.mjs <replicas> <directory> [<directory> ...]
// Each round opens a lexical-only local port on every `<directory>/index` (fresh, so every term
// is met for the first time again), warms each with the first 10 queries, then times each
// query once on every port, the ports taking turns (which goes first alternates), so that
// all see the same machine load. For CPU profiles of the lexical path, run it under
// `node --cpu-prof`. Prints one JSON line per directory: wall p50 / p95 / mean (ms) over every
// round's queries, the process's CPU time per query (p50), and the `fs.readSync` calls and
// the KB they read per timed query (mean): what a search reads from its files.
// Environment: BENCH_FIRST_USE_ROUNDS (default 1); BENCH_CODE_ROOT (corpus.mjs).
import fs, { readFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { codeRoot, loadEmbedder, vectorCachePath } from "./corpus.mjs";

const [replicasText, ...directories] = process.argv.slice(2);
const replicas = Number(replicasText);
const rounds = Number(process.env.BENCH_FIRST_USE_ROUNDS ?? 1);
if (!(replicas > 0) || directories.length === 0 || !Number.isInteger(rounds) || rounds < 1) {
  throw new Error(
    `usage: lexical-first-use.mjs <replicas> <directory> [<directory> ...] (BENCH_FIRST_USE_ROUNDS a whole number of at least 1), got ${process.argv.slice(2).join(" ")}`,
  );
}
// Every positional read of the index goes through `readSync`: counted before the package is
// loaded (its `import { readSync }` then binds the counting one).
const reads = { calls: 0, bytes: 0 };
const readSync = fs.readSync;
fs.readSync = (...args) => {
  const read = readSync(...args);
  reads.calls += 1;
  reads.bytes += read;
  return read;
};
syncBuiltinESMExports();
const { openLocalSearchPort } = await import(pathToFileURL(join(codeRoot, "packages/search-port/dist/local/index.js")).href);
const { identity } = await loadEmbedder();
const queries = JSON.parse(readFileSync(vectorCachePath(replicas, identity).queries, "utf8"));
const times = directories.map(() => []);
const cpuTimes = directories.map(() => []);
const readTotals = directories.map(() => ({ calls: 0, bytes: 0 }));
for (let round = 0; round < rounds; round += 1) {
  const ports = [];
  for (const directory of directories)
    ports.push(await openLocalSearchPort({ directory: join(directory, "index"), denseWeight: 0, minScore: 0 }));
  for (const port of ports) for (const query of queries.slice(0, 10)) await port.search({ query: query.text, topK: 10 });
  for (const [index, query] of queries.entries()) {
    for (let turn = 0; turn < ports.length; turn += 1) {
      const which = (turn + index + round) % ports.length;
      const before = { ...reads };
      const cpu = process.cpuUsage();
      const began = performance.now();
      await ports[which].search({ query: query.text, topK: 10 });
      times[which].push(performance.now() - began);
      const used = process.cpuUsage(cpu);
      cpuTimes[which].push((used.user + used.system) / 1000);
      readTotals[which].calls += reads.calls - before.calls;
      readTotals[which].bytes += reads.bytes - before.bytes;
    }
  }
  for (const port of ports) await port.close();
}
const at = (values, share) =>
  [...values].sort((left, right) => left - right)[Math.min(values.length - 1, Math.floor(share * values.length))];
directories.forEach((directory, index) => {
  const wall = times[index];
  const mean = wall.reduce((total, value) => total + value, 0) / wall.length;
  console.log(
    JSON.stringify({
      directory,
      queries: wall.length,
      p50: at(wall, 0.5),
      p95: at(wall, 0.95),
      mean,
      cpuP50: at(cpuTimes[index], 0.5),
      readsPerQuery: readTotals[index].calls / wall.length,
      kbReadPerQuery: readTotals[index].bytes / 1024 / wall.length,
    }),
  );
});
