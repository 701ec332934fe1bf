// Benchmarks of `@lookup-knowledge/search-port/local` (run `pnpm bench` after `tsc -b`).
// Prints numbers, asserts nothing.
// One script over 300 lines on purpose: its four parts share the loaded collections and the timing helpers.
//
// 1. Scale: a 100k-chunk index made by replicating SciFact (5,183 abstracts x 20), embedded
//    with the offline embedder: ingest chunks/s (tokenising + embedding + upsert), commit
//    time, reopen time, query p50/p95 (hybrid and lexical, and filtered), peak RSS, bytes on
//    disk, and the start-to-exit time of a one-query CLI process on it (and, in part 2, on
//    the 5,183-chunk SciFact index).
// 2. Quality: nDCG@10 on SciFact and Cranfield for BM25 alone, dense alone (int8 as stored,
//    and float32 for comparison), linear fusion at several weights, and reciprocal rank
//    fusion; on the dev half (even positions in queries.jsonl), the test half and all.
// 3. Dense scan speed at 100k x 356: WebAssembly SIMD over int8, plain JS over int8 and
//    over float32.
// 4. Calibration, default settings: the answerability judgement of the top hit of in-scope
//    questions (each collection's queries on its own index) against out-of-scope ones (each
//    collection's queries on the other index, and everyday questions on both).
//
// Environment: BENCH_REPLICAS (default 20), BENCH_SKIP_SCALE=1 to run only 2 and 3.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { DenseMatrix, quantiseVector } from "../dist/local/dense/dense-matrix.js";
import {
  defaultAnswerabilityModel,
  defaultCjkDenseWeight,
  defaultDenseFloor,
  defaultDenseWeight,
  openLocalSearchPort,
} from "../dist/local/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const datasets = join(here, "../../../../shared/datasets");
const workspace = mkdtempSync(join(tmpdir(), "local-port-bench-"));
const replicas = Number(process.env.BENCH_REPLICAS ?? 20);
const embeddings = createOfflineEmbeddings();

function readJsonLines(path) {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

function loadCollection(name) {
  const corpus = readJsonLines(join(datasets, name, "corpus.jsonl"));
  const queries = readJsonLines(join(datasets, name, "queries.jsonl"));
  const qrels = new Map();
  for (const line of readFileSync(join(datasets, name, "qrels.tsv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)) {
    const [query, document, grade] = line.split("\t");
    if (Number(grade) <= 0) continue;
    if (!qrels.has(query)) qrels.set(query, new Map());
    qrels.get(query).set(document, Number(grade));
  }
  return { name, corpus, queries: queries.filter((query) => qrels.has(query._id)), qrels };
}

const record = (document, suffix = "") => ({
  id: `${document._id}${suffix}#chunk-0`,
  content: document.text,
  metadata: {
    docId: `${document._id}${suffix}`,
    chunkIndex: 0,
    title: document.title,
    replica: suffix === "" ? 0 : Number(suffix.slice(2)),
  },
});

const percentile = (values, p) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};
const ms = (value) => `${value.toFixed(1)} ms`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function timeQueries(port, queries, filter) {
  const times = [];
  for (let round = 0; round < 2; round += 1) {
    for (const query of queries) {
      const started = performance.now();
      await port.search({ query: query.text, topK: 10, ...(filter === undefined ? {} : { filter }) });
      if (round === 1) times.push(performance.now() - started);
    }
  }
  return `p50 ${ms(percentile(times, 0.5))}, p95 ${ms(percentile(times, 0.95))}`;
}

/**
 * What the answerability signals and model cost a search: the same queries through a port
 * with the default model and one without (`answerability: false`), interleaved so both see
 * the same machine load, at topK 20 (the retriever's default retrieve-k).
 */
async function timeAnswerability(directory, queries) {
  const judged = await openLocalSearchPort({ directory, embeddings });
  const raw = await openLocalSearchPort({ directory, embeddings, answerability: false });
  const judgedTimes = [];
  const rawTimes = [];
  const differences = [];
  for (let round = 0; round < 2; round += 1) {
    for (const query of queries) {
      let started = performance.now();
      await raw.search({ query: query.text, topK: 20 });
      const rawMs = performance.now() - started;
      started = performance.now();
      await judged.search({ query: query.text, topK: 20 });
      const judgedMs = performance.now() - started;
      if (round === 0) continue;
      rawTimes.push(rawMs);
      judgedTimes.push(judgedMs);
      differences.push(judgedMs - rawMs);
    }
  }
  await judged.close();
  await raw.close();
  return (
    `p50 ${ms(percentile(judgedTimes, 0.5))} with the model, ${ms(percentile(rawTimes, 0.5))} without ` +
    `(ratio ${(percentile(judgedTimes, 0.5) / percentile(rawTimes, 0.5)).toFixed(3)}); median difference per query ${(percentile(differences, 0.5) * 1000).toFixed(0)} µs`
  );
}

function cliQuery(directory, query, hybrid) {
  const script = [
    `import { openLocalSearchPort } from ${JSON.stringify(pathToFileURL(join(here, "../dist/local/index.js")).href)};`,
    hybrid ? `import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";` : "",
    `const port = await openLocalSearchPort({ directory: ${JSON.stringify(directory)}${hybrid ? ", embeddings: createOfflineEmbeddings()" : ""} });`,
    `const hits = await port.search({ query: ${JSON.stringify(query)}, topK: 5 });`,
    `console.log(hits.length);`,
  ].join("\n");
  const started = performance.now();
  execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: here, stdio: ["ignore", "pipe", "inherit"] });
  return performance.now() - started;
}

const scifact = loadCollection("scifact");
const cranfield = loadCollection("cranfield");

// 1. Scale
if (process.env.BENCH_SKIP_SCALE !== "1") {
  const directory = join(workspace, "scifact-x20");
  const total = scifact.corpus.length * replicas;
  console.log(
    `\n## Scale: ${total} chunks (SciFact x ${replicas}), offline embedder ${embeddings.identity.id} (${embeddings.identity.dimension} dimensions)\n`,
  );
  const writer = await openLocalSearchPort({ directory, mode: "write", embeddings });
  let started = performance.now();
  const batch = [];
  for (let replica = 0; replica < replicas; replica += 1) {
    for (const document of scifact.corpus) {
      batch.push(record(document, `-r${replica}`));
      if (batch.length === 1000) await writer.upsert(batch.splice(0));
    }
  }
  if (batch.length > 0) await writer.upsert(batch.splice(0));
  const ingestSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await writer.commit();
  const commitMs = performance.now() - started;
  const stats = writer.stats();
  await writer.close();
  const rssAfterIngest = process.resourceUsage().maxRSS * 1024;
  started = performance.now();
  const hybrid = await openLocalSearchPort({ directory, embeddings });
  const reopenHybridMs = performance.now() - started;
  started = performance.now();
  const lexical = await openLocalSearchPort({ directory, denseWeight: 0 });
  const reopenLexicalMs = performance.now() - started;
  console.log(
    `- ingest (tokenise + embed + upsert, batches of 1000): ${(total / ingestSeconds).toFixed(0)} chunks/s (${ingestSeconds.toFixed(1)} s)`,
  );
  console.log(`- commit: ${ms(commitMs)}; on disk: ${mb(stats.bytesOnDisk)} (${stats.chunks} chunks, ${stats.documents} documents)`);
  console.log(`- reopen: hybrid (vectors loaded) ${ms(reopenHybridMs)}, lexical only ${ms(reopenLexicalMs)}`);
  console.log(`- query, hybrid (embed query + BM25 + dense scan + fusion), topK 10: ${await timeQueries(hybrid, scifact.queries)}`);
  console.log(`- query, lexical only: ${await timeQueries(lexical, scifact.queries)}`);
  started = performance.now();
  await hybrid.search({ query: "first filtered query", topK: 10, filter: { replica: 3 } });
  console.log(`- first filtered query (parses all metadata once, builds the filter's scope): ${ms(performance.now() - started)}`);
  console.log(`- query, hybrid with filter { replica: 3 } (1 in 20 pass): ${await timeQueries(hybrid, scifact.queries, { replica: 3 })}`);
  // A caller's filter is searched as an index of its own (scoped-snapshot.ts): built on first use, then kept.
  const half = { replica: { $lt: replicas / 2 } };
  started = performance.now();
  await hybrid.search({ query: "first query of a broad scope", topK: 10, filter: half });
  console.log(`- first query with filter { replica < ${replicas / 2} } (half pass; builds that scope): ${ms(performance.now() - started)}`);
  console.log(`- query, hybrid with that filter, scope kept: ${await timeQueries(hybrid, scifact.queries, half)}`);
  console.log(`- peak RSS: ${mb(rssAfterIngest)} after ingest and commit, ${mb(process.resourceUsage().maxRSS * 1024)} after queries`);
  await hybrid.close();
  await lexical.close();
  console.log(`- answerability signals and model, hybrid, topK 20: ${await timeAnswerability(directory, scifact.queries)}`);
  const cliTimes = [0, 1, 2].map(() => cliQuery(directory, "vitamin D deficiency and tuberculosis", true));
  console.log(`- CLI process, one hybrid query on ${total} chunks, start to exit: ${ms(percentile(cliTimes, 0.5))} (median of 3)`);
  rmSync(directory, { recursive: true, force: true });
}

// 2. Quality
function ndcg10(ranking, grades) {
  const gain = ranking.slice(0, 10).reduce((sum, id, rank) => sum + (grades.get(id) ?? 0) / Math.log2(rank + 2), 0);
  const ideal = [...grades.values()]
    .sort((left, right) => right - left)
    .slice(0, 10)
    .reduce((sum, grade, rank) => sum + grade / Math.log2(rank + 2), 0);
  return gain / ideal;
}

const summary = (values) => {
  const mean = (list) => list.reduce((sum, value) => sum + value, 0) / list.length;
  return [mean(values.filter((_, index) => index % 2 === 0)), mean(values.filter((_, index) => index % 2 === 1)), mean(values)];
};

async function quality(collection) {
  const directory = join(workspace, collection.name);
  const writer = await openLocalSearchPort({ directory, mode: "write", embeddings });
  const records = collection.corpus.map((document) => record(document));
  await writer.upsert(records);
  await writer.commit();
  await writer.close();
  if (collection.name === "scifact") {
    const hybridTimes = [0, 1, 2].map(() => cliQuery(directory, "vitamin D deficiency and tuberculosis", true));
    const lexicalTimes = [0, 1, 2].map(() => cliQuery(directory, "vitamin D deficiency and tuberculosis", false));
    cliLines.push(
      `- CLI process, one query on ${records.length} chunks, start to exit (median of 3): hybrid ${ms(percentile(hybridTimes, 0.5))}, lexical ${ms(percentile(lexicalTimes, 0.5))}`,
    );
  }
  // float32 vectors of the same texts, for the int8 comparison
  const texts = records.map((item) => `${item.metadata.title}\n${item.content}`);
  const floats = await embeddings.embedDocuments(texts);
  const rows = {};
  const add = (name, values) => {
    rows[name] = summary(values);
  };
  const open = (options) => openLocalSearchPort({ directory, embeddings, minScore: 0, ...options });
  const ports = {
    "BM25 alone": await open({ denseWeight: 0 }),
    "dense alone (int8, as stored)": await open({ denseWeight: 1, denseFloor: 0 }),
  };
  for (const weight of [0.1, 0.2, 0.3, 0.4, 0.5]) ports[`linear w=${weight}`] = await open({ denseWeight: weight });
  ports[`default (w=${defaultDenseWeight})`] = await openLocalSearchPort({ directory, embeddings });
  const results = Object.fromEntries(Object.keys(ports).map((name) => [name, []]));
  const rrf = [];
  const floatDense = [];
  for (const query of collection.queries) {
    const grades = collection.qrels.get(query._id);
    const rankings = {};
    for (const [name, port] of Object.entries(ports)) {
      rankings[name] = (await port.search({ query: query.text, topK: 100 })).map((hit) => hit.metadata.docId);
      results[name].push(ndcg10(rankings[name], grades));
    }
    const fused = new Map();
    for (const list of [rankings["BM25 alone"], rankings["dense alone (int8, as stored)"]]) {
      list.forEach((id, rank) => {
        fused.set(id, (fused.get(id) ?? 0) + 1 / (60 + rank + 1));
      });
    }
    rrf.push(
      ndcg10(
        [...fused].sort((left, right) => right[1] - left[1]).map(([id]) => id),
        grades,
      ),
    );
    const vector = await embeddings.embedQuery(query.text);
    const cosines = floats.map((row, index) => [index, row.reduce((sum, value, position) => sum + value * vector[position], 0)]);
    cosines.sort((left, right) => right[1] - left[1]);
    floatDense.push(
      ndcg10(
        cosines.slice(0, 10).map(([index]) => records[index].metadata.docId),
        grades,
      ),
    );
  }
  for (const [name, values] of Object.entries(results)) add(name, values);
  add("dense alone (float32)", floatDense);
  add("reciprocal rank fusion (k=60)", rrf);
  for (const port of Object.values(ports)) await port.close();
  return rows;
}

const cliLines = [];
console.log(`\n## Quality: nDCG@10 (dev = even positions in queries.jsonl, test = odd), offline embedder\n`);
const sets = [scifact, cranfield];
const tables = [];
for (const collection of sets) tables.push(await quality(collection));
console.log(`| ranking | ${sets.map((set) => `${set.name} dev | ${set.name} test | ${set.name} all`).join(" | ")} |`);
console.log(`|---|${sets.map(() => "---|---|---").join("|")}|`);
for (const name of Object.keys(tables[0])) {
  console.log(`| ${name} | ${tables.map((table) => table[name].map((value) => value.toFixed(4)).join(" | ")).join(" | ")} |`);
}

for (const line of cliLines) console.log(`\n${line}`);

// 3. Dense scan speed
console.log(`\n## Dense scan, 100,000 x ${embeddings.identity.dimension}\n`);
{
  const count = 100_000;
  const dimension = embeddings.identity.dimension;
  const sample = await embeddings.embedDocuments(scifact.corpus.slice(0, 1000).map((document) => document.text));
  const simd = new DenseMatrix(count, dimension);
  const plain = new DenseMatrix(count, dimension, { simd: false });
  const floats = new Float32Array(count * dimension);
  const codes = new Int8Array(simd.stride);
  for (let slot = 0; slot < count; slot += 1) {
    const vector = sample[slot % sample.length];
    const inverseNorm = quantiseVector(vector, codes);
    simd.setRow(slot, codes, inverseNorm);
    plain.setRow(slot, codes, inverseNorm);
    floats.set(vector, slot * dimension);
  }
  const query = await embeddings.embedQuery("vitamin D deficiency");
  const output = new Float32Array(count);
  const time = (run) => {
    for (let warm = 0; warm < 3; warm += 1) run();
    const started = performance.now();
    for (let round = 0; round < 10; round += 1) run();
    return (performance.now() - started) / 10;
  };
  const queryFloats = Float32Array.from(query);
  const floatScan = () => {
    for (let slot = 0, base = 0; slot < count; slot += 1, base += dimension) {
      let sum = 0;
      for (let index = 0; index < dimension; index += 1) sum += queryFloats[index] * floats[base + index];
      output[slot] = sum;
    }
  };
  console.log(`| scan | ms per query | vector bytes |`);
  console.log(`|---|---|---|`);
  console.log(`| int8, WebAssembly SIMD (used) | ${time(() => simd.cosines(query, output)).toFixed(1)} | ${mb(count * simd.stride)} |`);
  console.log(`| int8, plain JS (fallback) | ${time(() => plain.cosines(query, output)).toFixed(1)} | ${mb(count * simd.stride)} |`);
  console.log(`| float32, plain JS | ${time(floatScan).toFixed(1)} | ${mb(count * dimension * 4)} |`);
}

// 4. Calibration
{
  const everyday = [
    "How do I reset my router password?",
    "What is the best recipe for sourdough bread?",
    "Who won the football world cup in 2014?",
    "How can I get a refund for my flight ticket?",
    "What time does the train to Paris leave?",
    "How do I configure the Kubernetes ingress controller?",
    "What is the capital of Australia?",
    "Can I bring my dog on the plane?",
    "How to install Python on Windows?",
    "What are the lyrics of the national anthem?",
    "How do I change the oil in my car?",
    "Which programming language is best for web development?",
    "What is the weather like tomorrow?",
    "How do I file my taxes online?",
    "What is the price of bitcoin today?",
    "How to set up two-factor authentication for my email account?",
  ];
  const open = (collection, options) => openLocalSearchPort({ directory: join(workspace, collection.name), embeddings, ...options });
  const top = async (port, texts) => {
    const scores = [];
    for (const text of texts) scores.push((await port.search({ query: text, topK: 1 }))[0]?.answerability?.score ?? 0);
    return scores;
  };
  const inScope = [];
  const outOfScope = [];
  for (const [own, other] of [
    [scifact, cranfield],
    [cranfield, scifact],
  ]) {
    const port = await open(own, { minScore: 0 });
    inScope.push(
      ...(await top(
        port,
        own.queries.map((query) => query.text),
      )),
    );
    outOfScope.push(
      ...(await top(
        port,
        other.queries.map((query) => query.text),
      )),
      ...(await top(port, everyday)),
    );
    await port.close();
  }
  const share = (values, test) => values.filter(test).length / values.length;
  const quantiles = (values) => [0.1, 0.5, 0.9].map((p) => percentile(values, p).toFixed(2)).join(" / ");
  let best = { threshold: 0, accuracy: 0 };
  for (let threshold = 0.1; threshold < 0.8; threshold += 0.01) {
    const accuracy = (share(inScope, (score) => score >= threshold) + share(outOfScope, (score) => score < threshold)) / 2;
    if (accuracy > best.accuracy) best = { threshold, accuracy };
  }
  console.log(
    `\n## Calibration (defaults: denseWeight ${defaultDenseWeight}, cjkDenseWeight ${defaultCjkDenseWeight}, denseFloor ${defaultDenseFloor}, judgement = answerability model v${defaultAnswerabilityModel.version})\n`,
  );
  console.log(`| | in scope (${inScope.length}) | out of scope (${outOfScope.length}) |`);
  console.log(`|---|---|---|`);
  console.log(`| judgement of the top hit, 10th / 50th / 90th percentile | ${quantiles(inScope)} | ${quantiles(outOfScope)} |`);
  // The model's own operating point (recall first, decision 0004) and the default for plain scores.
  for (const threshold of [defaultAnswerabilityModel.referenceThreshold, 0.35]) {
    if (threshold === undefined) continue;
    console.log(
      `| share at or above ${threshold} | ${(100 * share(inScope, (score) => score >= threshold)).toFixed(0)}% | ${(100 * share(outOfScope, (score) => score >= threshold)).toFixed(0)}% |`,
    );
  }
  console.log(`\n- best separating threshold: ${best.threshold.toFixed(2)} (balanced accuracy ${best.accuracy.toFixed(3)})`);
}

rmSync(workspace, { recursive: true, force: true });
