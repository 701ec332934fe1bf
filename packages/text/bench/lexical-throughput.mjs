// Throughput of the lexical view (`lexicalTerms`, defaults) and of the embedding view (`embeddingTerms`) in MB/s of UTF-8 text per second
// of the process's CPU time (`process.cpuUsage`: on a machine shared with other work, wall
// time counts the time other processes held the core; both are printed), on the
// SciFact abstracts (title and text), the ShardingSphere and APISIX Chinese docs and the
// APISIX English docs (../../../../shared/datasets, or $LOOKUP_KNOWLEDGE_DATASETS). With
// the folder of another build of this package (its `dist`, e.g. one built from an older
// commit), both are timed in the same run, interleaved: each round runs each build in a
// fresh process (one pass to warm up: JIT, jieba's dictionary; then 5 timed passes, their
// median), and the table gives the median of the rounds and the ratio. Run after `tsc -b`:
//
//   node bench/lexical-throughput.mjs [baseline-dist-folder] [rounds]
//
// (A baseline: `git worktree add /tmp/text-before <commit>`, then `pnpm install` and
// `pnpm --filter @lookup-knowledge/text build` there, and pass /tmp/text-before/packages/text/dist.)
//
// Prints numbers, asserts nothing.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const datasets = process.env.LOOKUP_KNOWLEDGE_DATASETS ?? join(here, "../../../../shared/datasets");
const passes = 5;
/** The views timed: the lexical one (the index's terms) and the embedding one (the offline embedder's). */
const views = ["lexicalTerms", "embeddingTerms"];

function markdownUnder(root) {
  return readdirSync(root, { recursive: true })
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => readFileSync(join(root, name), "utf8"));
}

const sets = {
  scifact: () =>
    readFileSync(join(datasets, "scifact", "corpus.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => {
        const document = JSON.parse(line);
        return `${document.title}\n${document.text}`;
      }),
  "shardingsphere-zh": () => markdownUnder(join(datasets, "shardingsphere-docs", "zh")),
  "apisix-zh": () => markdownUnder(join(datasets, "apisix-docs", "docs", "zh")),
  "apisix-en": () => markdownUnder(join(datasets, "apisix-docs", "docs", "en")),
};

const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];

if (process.argv[2] === "--run") {
  // One build, one process: print {set: MB/s} as JSON.
  const analyser = await import(pathToFileURL(join(process.argv[3], "index.js")).href);
  const view = analyser[process.argv[4]];
  const result = {};
  for (const [name, load] of Object.entries(sets)) {
    const texts = load();
    const megabytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1e6;
    for (const text of texts) view(text);
    const rates = [];
    const wallRates = [];
    for (let pass = 0; pass < passes; pass += 1) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      for (const text of texts) view(text);
      const used = process.cpuUsage(cpu);
      rates.push(megabytes / ((used.user + used.system) / 1e6));
      wallRates.push(megabytes / ((performance.now() - started) / 1000));
    }
    result[name] = median(rates);
    result[`${name} (wall)`] = median(wallRates);
  }
  console.log(JSON.stringify(result));
} else {
  if (!existsSync(join(datasets, "scifact"))) {
    console.log(`(no datasets at ${datasets}: nothing to measure)`);
    process.exit(0);
  }
  const builds = [["this build", join(here, "../dist")]];
  const baseline = process.argv[2];
  if (baseline !== undefined) builds.unshift(["baseline", resolve(baseline)]);
  const rounds = Number(process.argv[3] ?? 5);
  const rates = new Map();
  for (let round = 0; round < rounds; round += 1) {
    for (const view of views) {
      for (const [name, folder] of builds) {
        const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--run", folder, view], { encoding: "utf8" });
        for (const [set, rate] of Object.entries(JSON.parse(output))) {
          const key = `${view} ${set}\u0000${name}`;
          rates.set(key, [...(rates.get(key) ?? []), rate]);
        }
      }
    }
  }
  console.log(
    `MB of UTF-8 text per CPU second (and per wall second): median of ${rounds} interleaved rounds (each the median of ${passes} passes)\n`,
  );
  console.log(`| set | ${builds.map(([name]) => name).join(" | ")}${baseline === undefined ? "" : " | ratio"} |`);
  console.log(`|---|${builds.map(() => "---|").join("")}${baseline === undefined ? "" : "---|"}`);
  const rows = views.flatMap((view) => Object.keys(sets).flatMap((name) => [`${view} ${name}`, `${view} ${name} (wall)`]));
  for (const set of rows) {
    const medians = builds.map(([name]) => median(rates.get(`${set}\u0000${name}`)));
    const ratio = baseline === undefined ? "" : ` ${(medians[1] / medians[0]).toFixed(2)}x |`;
    console.log(`| ${set} | ${medians.map((value) => value.toFixed(2)).join(" | ")} |${ratio}`);
  }
}
