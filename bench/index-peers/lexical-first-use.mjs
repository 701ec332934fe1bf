// Lexical first-use time alone (no dense or hybrid ports): opens a lexical-only local port on
// `<directory>/index`, warms it with the first 10 queries, then times each of the queries once
// (most of their terms met for the first time), as `store-child.mjs query` does for lexical
// search without the other two modes in between. For profiles of the lexical path
// (`node --cpu-prof lexical-first-use.mjs <directory> <replicas>`). Prints one JSON line: wall
// p50 / p95 / total (ms), and the process's CPU time per query (p50, total; less swayed by other
// work on a shared machine).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import { codeRoot, loadEmbedder, vectorCachePath } from "./corpus.mjs";

const [directory, replicasText] = process.argv.slice(2);
const replicas = Number(replicasText);
if (directory === undefined || !(replicas > 0)) throw new Error("usage: lexical-first-use.mjs <directory> <replicas>");
const { openLocalSearchPort } = await import(pathToFileURL(join(codeRoot, "packages/search-port/dist/local/index.js")).href);
const { identity } = await loadEmbedder();
const queries = JSON.parse(readFileSync(vectorCachePath(replicas, identity).queries, "utf8"));
const port = await openLocalSearchPort({ directory: join(directory, "index"), denseWeight: 0, minScore: 0 });
for (const query of queries.slice(0, 10)) await port.search({ query: query.text, topK: 10 });
const times = [];
const cpuTimes = [];
for (const query of queries) {
  const cpu = process.cpuUsage();
  const began = performance.now();
  await port.search({ query: query.text, topK: 10 });
  times.push(performance.now() - began);
  const used = process.cpuUsage(cpu);
  cpuTimes.push((used.user + used.system) / 1000);
}
await port.close();
const at = (values, share) =>
  [...values].sort((left, right) => left - right)[Math.min(values.length - 1, Math.floor(share * values.length))];
const sum = (values) => values.reduce((total, value) => total + value, 0);
console.log(
  JSON.stringify({
    queries: times.length,
    p50: at(times, 0.5),
    p95: at(times, 0.95),
    total: sum(times),
    cpuP50: at(cpuTimes, 0.5),
    cpuTotal: sum(cpuTimes),
  }),
);
