// The text analysis and term counting of a build alone, for checkouts side by side in one
// process: SciFact x N replicas' chunk texts (as the build bench makes them) analysed and
// counted into a fresh pending dictionary per round, the checkouts taking turns each round.
// A checkout whose PendingChanges has `analyse` (ids of the pending dictionary) is measured
// through it, an older one through `lexicalTerms` and `countTerms`; the check column (terms
// counted / dictionary size) must be the same for all. Wall and CPU time (the process's, user +
// system, GC included) are given per checkout: on a busy machine the CPU time is the steadier.
//   node bench/index-peers/analysis-rate.mjs <checkout>[,<checkout>...] [replicas = 3] [rounds = 5]
import { pathToFileURL } from "node:url";
import { readScifact, replicatedChunks } from "./corpus.mjs";

const [checkoutsText, replicasText = "3", roundsText = "5"] = process.argv.slice(2);
const replicas = Number(replicasText);
const rounds = Number(roundsText);
if (checkoutsText === undefined || !(replicas >= 1) || !(rounds >= 1))
  throw new Error(`usage: analysis-rate.mjs <checkout>[,<checkout>...] [replicas] [rounds], got ${process.argv.slice(2).join(" ")}`);
const entries = [];
for (const root of checkoutsText.split(",")) {
  const text = await import(pathToFileURL(`${root}/packages/text/dist/index.js`).href);
  const pending = await import(pathToFileURL(`${root}/packages/search-port/dist/local/snapshot/pending-changes.js`).href);
  entries.push({ root, lexicalTerms: text.lexicalTerms, PendingChanges: pending.PendingChanges, times: [], cpu: [], check: "" });
}
const texts = [...replicatedChunks(readScifact().corpus, replicas)].map((chunk) => chunk.text);
for (let round = 0; round < rounds; round += 1) {
  for (const entry of entries) {
    const changes = new entry.PendingChanges(0);
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    let counted = 0;
    for (const text of texts) {
      const terms = typeof changes.analyse === "function" ? changes.analyse(text) : entry.lexicalTerms(text);
      counted += changes.countTerms(terms).terms.length;
    }
    entry.times.push(performance.now() - started);
    const cpu = process.cpuUsage(cpuStarted);
    entry.cpu.push((cpu.user + cpu.system) / 1000);
    entry.check = `${counted}/${changes.dictionaryTerms.length}`;
  }
}
const median = (values) => [...values].sort((left, right) => left - right)[values.length >> 1];
for (const entry of entries)
  console.log(
    `${entry.root}: median ${median(entry.times).toFixed(0)} ms, min ${Math.min(...entry.times).toFixed(0)} ms; CPU median ${median(entry.cpu).toFixed(0)} ms (${texts.length} texts; check ${entry.check})`,
  );
for (const entry of entries.slice(1))
  console.log(
    `${entries[0].root} / ${entry.root}, medians: ${(median(entries[0].times) / median(entry.times)).toFixed(2)} (wall), ${(median(entries[0].cpu) / median(entry.cpu)).toFixed(2)} (CPU)`,
  );
