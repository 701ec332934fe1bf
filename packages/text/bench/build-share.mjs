// What share of a local-index build the text analysis takes: builds a 103,660-chunk index
// (SciFact x 20, the scale part of `packages/search-port/bench/local-port.mjs`: batches of
// 1,000) under the CPU profiler and prints the wall time and the share of the build's CPU
// samples spent in this package (its functions and what they call: regular expressions,
// `stemmer`, jieba), in garbage collection, and the busiest functions. Embedding is excluded
// as in issue 36's figures: the offline embedder's vectors of the 5,183 abstracts are worked
// out before the profile starts and handed back from memory (`--embed`: embedded during the
// build, which adds the embedder's own text analysis, `embeddingTerms` and `stemWord`).
// Run after `pnpm build` from the repository root:
//
//   node packages/text/bench/build-share.mjs [--embed] [replicas]
//
// LOOKUP_KNOWLEDGE_TEXT_DIST=<folder> profiles another build of this package instead (its
// `dist`, see text-dist-hook.mjs), for before/after figures in the same session. Prints
// numbers, asserts nothing. Reaches into the search-port and embeddings builds by path: a
// benchmark of what the build costs, not code of this package.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { register } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
register(pathToFileURL(join(here, "text-dist-hook.mjs")).href);
const { openLocalSearchPort } = await import(pathToFileURL(join(here, "../../search-port/dist/local/index.js")).href);
const { createOfflineEmbeddings } = await import(pathToFileURL(join(here, "../../embeddings/dist/index.js")).href);

const datasets = process.env.LOOKUP_KNOWLEDGE_DATASETS ?? join(here, "../../../../shared/datasets");
const embedDuringBuild = process.argv.includes("--embed");
const replicas = Number(process.argv.slice(2).find((argument) => !argument.startsWith("--")) ?? 20);
const textFolders = [join(here, "../dist"), process.env.LOOKUP_KNOWLEDGE_TEXT_DIST, "/node_modules/stemmer/", "/@node-rs/jieba"]
  .filter((folder) => folder !== undefined && folder !== "")
  .map((folder) => (folder.startsWith("/node_modules") || folder.startsWith("/@") ? folder : pathToFileURL(folder).href));

const corpus = readFileSync(join(datasets, "scifact", "corpus.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line));
const directory = mkdtempSync(join(tmpdir(), "text-build-share-"));
const offline = createOfflineEmbeddings();
/** The offline embedder's vectors, worked out once per distinct text before the profile starts. */
async function cachedEmbeddings() {
  // The text the writer embeds: the title, a line break and the content (search-port's `indexedText`).
  const texts = corpus.map((document) => (document.title.trim() === "" ? document.text : `${document.title}\n${document.text}`));
  const vectors = await offline.embedDocuments(texts);
  const byText = new Map(texts.map((text, index) => [text, vectors[index]]));
  return {
    identity: offline.identity,
    embedDocuments: async (batchTexts) =>
      batchTexts.map((text) => {
        const vector = byText.get(text);
        if (vector === undefined) throw new Error(`no vector worked out for ${JSON.stringify(text.slice(0, 80))}`);
        return vector;
      }),
    embedQuery: (query) => offline.embedQuery(query),
  };
}
const embeddings = embedDuringBuild ? offline : await cachedEmbeddings();
const writer = await openLocalSearchPort({ directory: join(directory, "index"), mode: "write", embeddings });

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 500 });
await session.post("Profiler.start");
const started = performance.now();
const batch = [];
for (let replica = 0; replica < replicas; replica += 1) {
  for (const document of corpus) {
    batch.push({
      id: `${document._id}-r${replica}#chunk-0`,
      content: document.text,
      metadata: { docId: `${document._id}-r${replica}`, chunkIndex: 0, title: document.title, replica },
    });
    if (batch.length === 1000) await writer.upsert(batch.splice(0));
  }
}
if (batch.length > 0) await writer.upsert(batch.splice(0));
await writer.commit();
const seconds = (performance.now() - started) / 1000;
const { profile } = await session.post("Profiler.stop");
session.disconnect();
await writer.close();
rmSync(directory, { recursive: true, force: true });

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const isText = (node) => textFolders.some((folder) => node.callFrame.url.includes(folder));
/** Whether a node runs inside a function of this package (itself or a caller). */
const insideText = new Map();
const inside = (id) => {
  if (insideText.has(id)) return insideText.get(id);
  const node = nodes.get(id);
  const parent = parents.get(id);
  const answer = isText(node) || (parent !== undefined && inside(parent));
  insideText.set(id, answer);
  return answer;
};
const selfTime = new Map();
for (let index = 0; index < profile.samples.length; index += 1) {
  const id = profile.samples[index];
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
}
let total = 0;
let text = 0;
let garbage = 0;
const byFunction = new Map();
for (const [id, time] of selfTime) {
  const node = nodes.get(id);
  total += time;
  if (inside(id)) text += time;
  if (node.callFrame.functionName === "(garbage collector)") garbage += time;
  const name = `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.split("/").slice(-2).join("/")}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + time);
}
const share = (time) => `${((100 * time) / total).toFixed(1)}%`;
console.log(`text build: ${process.env.LOOKUP_KNOWLEDGE_TEXT_DIST || "this package's dist"}`);
console.log(
  `${corpus.length * replicas} chunks built${embedDuringBuild ? ", embedded during the build," : " (embedding excluded)"} (upsert + commit) in ${seconds.toFixed(1)} s: ${((corpus.length * replicas) / seconds).toFixed(0)} chunks/s`,
);
console.log(`text analysis (inclusive): ${share(text)}, garbage collection: ${share(garbage)}, of ${(total / 1e6).toFixed(1)} s sampled`);
console.log("busiest functions (self time):");
for (const [name, time] of [...byFunction].sort((left, right) => right[1] - left[1]).slice(0, 12))
  console.log(`  ${share(time).padStart(6)} ${name}`);
