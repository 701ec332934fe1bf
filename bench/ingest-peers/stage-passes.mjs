// Issue 36 item 6: the two stages of an ingest that packages/ingest and packages/embeddings
// own, apart, cold and warm. A child process parses every Markdown file of the tree
// (`parseMarkdownDocument`, on the calling thread) twice, then embeds the chunks' text with
// the offline embedder (`embedDocumentRows`, batches of 256) twice, and reports the CPU time
// of each pass (files read and word table loaded beforehand). With BENCH_CLI_BEFORE, another
// checkout's build runs in the same rounds, alternating, so a change is read side by side.
//
//   node bench/ingest-peers/stage-passes.mjs [tree]                          # 5 rounds
//   BENCH_CLI_BEFORE=/path/to/other/checkout BENCH_INGEST_ROUNDS=7 node bench/ingest-peers/stage-passes.mjs
//
// Needs `pnpm build` (in both checkouts).
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./median.mjs";
import { childStderr } from "./child-stderr.mjs";

const here = dirname(fileURLToPath(import.meta.url));

if (process.argv[2] === "--child") {
  const [, , , checkout, tree] = process.argv;
  // The package entry (not its file), so a checkout from before or after src/ was split into folders runs too.
  const { parseMarkdownDocument } = await import(join(checkout, "packages/ingest/dist/index.js"));
  const { createOfflineEmbeddings } = await import(join(checkout, "packages/embeddings/dist/index.js"));
  const files = readdirSync(tree, { recursive: true })
    .filter((path) => /\.mdx?$/.test(path))
    .sort()
    .map((path) => [path, readFileSync(join(tree, path), "utf8")]);
  const cpuOf = (work) => {
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
  let texts = [];
  const parse = () => {
    texts = files.flatMap(([source, text]) => parseMarkdownDocument(text, { source }).chunks.map((chunk) => chunk.content));
  };
  const embeddings = createOfflineEmbeddings();
  const embed = () => {
    for (let start = 0; start < texts.length; start += 256) embeddings.embedDocumentsInto(texts.slice(start, start + 256), "float32");
  };
  const result = { parse1: cpuOf(parse), parse2: cpuOf(parse) };
  embeddings.embedDocumentsInto(["loads the word table"], "float32");
  Object.assign(result, { embed1: cpuOf(embed), embed2: cpuOf(embed), chunks: texts.length });
  console.log(JSON.stringify(result));
  process.exit(0);
}

const root = join(here, "../..");
const tree = resolve(process.argv[2] ?? join(root, "../shared/datasets/apisix-docs/docs/en"));
const rounds = Number(process.env.BENCH_INGEST_ROUNDS ?? 5);
if (!Number.isInteger(rounds) || rounds <= 0) throw new Error(`BENCH_INGEST_ROUNDS must be a positive integer, got ${rounds}`);
const checkouts = { ours: root };
if (process.env.BENCH_CLI_BEFORE) checkouts.before = resolve(process.env.BENCH_CLI_BEFORE);
const names = Object.keys(checkouts);
const results = Object.fromEntries(names.map((name) => [name, []]));
const loads = [];
for (let round = 0; round < rounds; round += 1) {
  for (const name of names.map((_, index) => names[(index + round) % names.length])) {
    loads.push(loadavg()[0]);
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", checkouts[name], tree], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`${name} failed:\n${childStderr(run.stderr)}`);
    results[name].push(JSON.parse(run.stdout.trim().split("\n").pop()));
  }
  console.error(`[stage-passes] round ${round + 1}/${rounds} done`);
}

const show = (values) => `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
console.log(`\n## Parse and embed CPU (ms), cold and warm: ${tree}, median of ${rounds} rounds (min-max)\n`);
console.log(`one-minute load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}\n`);
console.log(`| pass | ${names.join(" | ")} |`);
console.log(`|---|${names.map(() => "---").join("|")}|`);
for (const [key, label] of [
  ["parse1", "parse, cold"],
  ["parse2", "parse, warm"],
  ["embed1", "embed, cold"],
  ["embed2", "embed, warm"],
  ["chunks", "chunks"],
]) {
  console.log(`| ${label} | ${names.map((name) => show(results[name].map((result) => result[key]))).join(" | ")} |`);
}
