// Times one mode of our local index on a folder that store-child.mjs built, in this process
// alone (open, RSS, p50 / p95), for sizes where the whole peers run takes too long:
//   node store-child.mjs build ours <directory> 200
//   node query-index.mjs <directory>/index lexical|dense|hybrid <replicas>   (ROUNDS, default 3)
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cachedQueryEmbeddings, codeRoot } from "./corpus.mjs";

const { openLocalSearchPort } = await import(pathToFileURL(join(codeRoot, "packages/search-port/dist/local/index.js")).href);
const [directory, mode, replicasText] = process.argv.slice(2);
const modes = { lexical: { denseWeight: 0 }, dense: { denseWeight: 1, denseFloor: 0 }, hybrid: {} };
if (directory === undefined || !(mode in modes) || !(Number(replicasText) > 0)) {
  throw new Error(`usage: query-index.mjs <index folder> lexical|dense|hybrid <replicas>, got ${process.argv.slice(2).join(" ")}`);
}
const { queries, embeddings } = await cachedQueryEmbeddings(Number(replicasText), "query-index.mjs");
const rssMb = () => (process.memoryUsage().rss / 1048576).toFixed(0);
let started = performance.now();
const port = await openLocalSearchPort({ directory, embeddings, minScore: 0, ...modes[mode] });
console.log(`open ${(performance.now() - started).toFixed(1)} ms, RSS after open ${rssMb()} MB`);
const times = [];
// CPU time per search beside wall time: on this shared machine the wall time is as much the load's as the search's.
const cpuTimes = [];
for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round += 1) {
  for (const query of queries) {
    const cpuBefore = process.cpuUsage();
    started = performance.now();
    await port.search({ query: query.text, topK: 10 });
    times.push(performance.now() - started);
    const cpu = process.cpuUsage(cpuBefore);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
  }
}
const first = times[0];
const at = (values, share) => {
  const sorted = [...values].sort((left, right) => left - right);
  return (sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0).toFixed(2);
};
console.log(
  `${mode}: first ${first?.toFixed(1)} ms, p50 ${at(times, 0.5)} ms, p95 ${at(times, 0.95)} ms over ${times.length}; ` +
    `CPU p50 ${at(cpuTimes, 0.5)} ms, p95 ${at(cpuTimes, 0.95)} ms; RSS ${rssMb()} MB`,
);
await port.close();
