// What the text analysis costs: the cold start of a process that analyses one English or
// one Chinese query (jieba's dictionary loads on the first CJK text only), and throughput
// of each view over the APISIX documentation (../../../../shared/datasets/apisix-docs, or
// $LOOKUP_KNOWLEDGE_DATASETS/apisix-docs). Run after `tsc -b`: `node bench/analyse-timing.mjs`.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { embeddingTerms, lexicalTerms } from "../dist/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const entry = pathToFileURL(join(here, "../dist/index.js")).href;
const datasets = process.env.LOOKUP_KNOWLEDGE_DATASETS ?? join(here, "../../../../shared/datasets");

function coldStart(query) {
  const script =
    `const started = performance.now(); const { lexicalTerms } = await import(${JSON.stringify(entry)});` +
    `const imported = performance.now(); lexicalTerms(${JSON.stringify(query)});` +
    "console.log(JSON.stringify({ importMs: imported - started, firstQueryMs: performance.now() - imported }));";
  const runs = [];
  for (let run = 0; run < 7; run += 1) {
    const wall = performance.now();
    const result = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
    runs.push({ ...result, processMs: performance.now() - wall });
  }
  const median = (key) =>
    runs
      .map((run) => run[key])
      .sort((left, right) => left - right)[3]
      .toFixed(1);
  return `| ${JSON.stringify(query)} | ${median("importMs")} | ${median("firstQueryMs")} | ${median("processMs")} |`;
}

console.log("Cold start, median of 7 fresh processes (ms):\n");
console.log("| query | import | first analysis | whole process |");
console.log("|---|---|---|---|");
console.log(coldStart("How do I configure the limit-count plugin?"));
console.log(coldStart("如何配置限流插件？"));

const views = [
  ["lexicalTerms (default: jieba words)", (text) => lexicalTerms(text)],
  ["lexicalTerms, cjk bigrams", (text) => lexicalTerms(text, { cjk: "bigrams" })],
  ["lexicalTerms, cjk words+bigrams", (text) => lexicalTerms(text, { cjk: "words+bigrams" })],
  ["embeddingTerms", (text) => embeddingTerms(text)],
];
for (const language of ["en", "zh"]) {
  const root = join(datasets, "apisix-docs", "docs", language, "latest");
  if (!existsSync(root)) {
    console.log(`\n(no ${root}: throughput skipped)`);
    continue;
  }
  const texts = readdirSync(root, { recursive: true })
    .filter((name) => name.endsWith(".md"))
    .map((name) => readFileSync(join(root, name), "utf8"));
  const characters = texts.reduce((sum, text) => sum + text.length, 0);
  console.log(
    `\nThroughput over apisix-docs/${language} (${texts.length} files, ${(characters / 1e6).toFixed(1)} M characters), best of 3:\n`,
  );
  console.log("| view | M characters/s |");
  console.log("|---|---|");
  for (const [name, analyse] of views) {
    let best = Infinity;
    for (let round = 0; round < 3; round += 1) {
      const started = performance.now();
      for (const text of texts) analyse(text);
      best = Math.min(best, performance.now() - started);
    }
    console.log(`| ${name} | ${(characters / best / 1000).toFixed(2)} |`);
  }
}
