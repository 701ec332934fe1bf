// Issue 36 item 4: what building the local index costs when the embedder's vectors reach the
// writer as `number[]` rows (each cached Float32Array row copied with `Array.from`, as a
// LangChain-shaped `embedDocuments` had to) against as `Float32Array` rows (views into the
// cached vectors, no copy).
//
//   node packages/search-port/bench/typed-vectors.mjs [replicas] [rounds]
//
// SciFact x `replicas` (default 20: 103,660 chunks) with the offline embedder's vectors,
// cached by `bench/index-peers` (made once if missing). Each build runs in a process of its
// own; the variants take turns in every round (interleaved, so a busy machine slows them
// alike). Variants, as `label=codeRoot:rows`: by default this checkout fed `arrays` and
// `rows`; `BENCH_VARIANTS="before=/path/to/old/checkout:arrays after=.:rows"` compares two
// builds of the code. Prints each round, then the median build time, chunks/s and peak RSS
// per variant, and the ratio of each to the first. Embedding is excluded (cached vectors).
// `node packages/search-port/bench/typed-vectors.mjs --parts [replicas] [rounds]` times the two
// steps that differ (making the rows, quantising them) alone, on CPU time.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../../..");

if (process.argv[2] === "--child") {
  await child(process.argv[3], process.argv[4], Number(process.argv[5]));
} else if (process.argv[2] === "--parts") {
  await parts(Number(process.argv[3] ?? 20), Number(process.argv[4] ?? 5));
} else {
  await parent(Number(process.argv[2] ?? 20), Number(process.argv[3] ?? 3));
}

async function parent(replicas, rounds) {
  const corpus = await import(pathToFileURL(join(root, "bench/index-peers/corpus.mjs")).href);
  const { identity } = await corpus.loadEmbedder();
  // Made (with the peer bench's default 100 queries) only when missing: a shorter query list would rewrite the cached one.
  if (!existsSync(corpus.vectorCachePath(replicas, identity).vectors))
    await corpus.ensureVectors(replicas, 100, (line) => console.error(line));
  const variants = (process.env.BENCH_VARIANTS ?? `arrays=${root}:arrays rows=${root}:rows`).split(/\s+/).map((entry) => {
    const [label, rest] = entry.split("=");
    const [codeRoot, rows] = rest.split(":");
    if (rows !== "arrays" && rows !== "rows") throw new Error(`BENCH_VARIANTS: ${entry} must end in :arrays or :rows`);
    return { label, codeRoot: resolve(codeRoot === "." ? root : codeRoot), rows, results: [] };
  });
  console.log(
    `SciFact x${replicas}, ${rounds} rounds, variants: ${variants.map((v) => `${v.label} (${v.codeRoot}, ${v.rows})`).join(", ")}`,
  );
  for (let round = 0; round < rounds; round += 1) {
    // Alternate the order each round, so neither variant always runs first.
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      const output = execFileSync(
        process.execPath,
        [fileURLToPath(import.meta.url), "--child", variant.codeRoot, variant.rows, String(replicas)],
        {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      const result = JSON.parse(output.trim().split("\n").at(-1));
      variant.results.push(result);
      console.log(
        `round ${round + 1} ${variant.label}: ${result.chunks} chunks, build ${(result.buildMs / 1000).toFixed(2)} s wall (${Math.round(result.chunks / (result.buildMs / 1000))} chunks/s), ${(result.cpuMs / 1000).toFixed(2)} s CPU, rows made ${(result.rowsMs / 1000).toFixed(2)} s, peak RSS ${result.peakRssMb} MB`,
      );
    }
  }
  const median = (values) => {
    const sorted = [...values].sort((left, right) => left - right);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const firstWall = median(variants[0].results.map((result) => result.buildMs));
  const firstCpu = median(variants[0].results.map((result) => result.cpuMs));
  console.log("\nvariant | median build s (wall) | chunks/s | median CPU s | rows made s | peak RSS MB | wall vs first | CPU vs first");
  for (const variant of variants) {
    const wall = median(variant.results.map((result) => result.buildMs));
    const cpu = median(variant.results.map((result) => result.cpuMs));
    const chunks = variant.results[0].chunks;
    const rowsMade = median(variant.results.map((result) => result.rowsMs)) / 1000;
    const rss = median(variant.results.map((result) => result.peakRssMb));
    console.log(
      `${variant.label} | ${(wall / 1000).toFixed(2)} | ${Math.round(chunks / (wall / 1000))} | ${(cpu / 1000).toFixed(2)} | ${rowsMade.toFixed(2)} | ${rss} | ${(wall / firstWall).toFixed(3)} | ${(cpu / firstCpu).toFixed(3)}`,
    );
  }
}

/**
 * `--parts [replicas] [rounds]`: the two steps the typed rows change, alone, in this process
 * and on its CPU time (steadier than wall time on a busy machine): making every row of the
 * cached vectors as the embedder answers it (`Array.from` copies against `subarray` views),
 * and quantising those rows to int8 codes (`quantiseVector`, as the writer stages them).
 * Rounds interleave the two kinds; prints the medians.
 */
async function parts(replicas, rounds) {
  const corpus = await import(pathToFileURL(join(root, "bench/index-peers/corpus.mjs")).href);
  const { quantiseVector, strideFor } = await import(
    pathToFileURL(join(root, "packages/search-port/dist/local/dense/dense-matrix.js")).href
  );
  const { identity } = await corpus.loadEmbedder();
  const { floats, dimension } = corpus.readVectors(corpus.vectorCachePath(replicas, identity).vectors, identity.dimension);
  const count = floats.length / dimension;
  const codes = new Int8Array(strideFor(dimension));
  const cpuMs = (work) => {
    const before = process.cpuUsage();
    const result = work();
    const used = process.cpuUsage(before);
    return { ms: (used.user + used.system) / 1000, result };
  };
  const make = (kind) => {
    const rows = new Array(count);
    for (let row = 0; row < count; row += 1) {
      const view = floats.subarray(row * dimension, (row + 1) * dimension);
      rows[row] = kind === "arrays" ? Array.from(view) : view;
    }
    return rows;
  };
  const quantise = (rows) => {
    let sum = 0;
    for (const row of rows) sum += quantiseVector(row, codes);
    return sum;
  };
  const times = { arrays: { make: [], quantise: [] }, rows: { make: [], quantise: [] } };
  for (let round = 0; round < rounds; round += 1) {
    for (const kind of round % 2 === 0 ? ["arrays", "rows"] : ["rows", "arrays"]) {
      const made = cpuMs(() => make(kind));
      const quantised = cpuMs(() => quantise(made.result));
      times[kind].make.push(made.ms);
      times[kind].quantise.push(quantised.ms);
    }
  }
  const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
  console.log(`${count} rows of ${dimension} dimensions, ${rounds} rounds, CPU ms (median):`);
  for (const kind of ["arrays", "rows"]) {
    const { make: made, quantise: quantised } = times[kind];
    console.log(
      `${kind}: make rows ${median(made).toFixed(0)}, quantise ${median(quantised).toFixed(0)}, together ${(median(made) + median(quantised)).toFixed(0)}`,
    );
  }
}

/** One build of SciFact x `replicas` with the code at `codeRoot`, fed `rows` ("arrays" or "rows"); prints one JSON line. */
async function child(codeRoot, rows, replicas) {
  const corpus = await import(pathToFileURL(join(root, "bench/index-peers/corpus.mjs")).href);
  const { openLocalSearchPort } = await import(pathToFileURL(join(codeRoot, "packages/search-port/dist/local/index.js")).href);
  const { identity } = await corpus.loadEmbedder();
  const { floats, dimension } = corpus.readVectors(corpus.vectorCachePath(replicas, identity).vectors, identity.dimension);
  const chunks = [...corpus.replicatedChunks(corpus.readScifact().corpus, replicas)];
  let rowsMs = 0;
  const batchRows = new Map();
  const embeddings = {
    identity,
    async embedQuery() {
      throw new Error("the build embeds no query");
    },
    async embedDocuments(texts) {
      const started = performance.now();
      const answer = texts.map((text) => {
        const row = batchRows.get(text);
        if (row === undefined) throw new Error(`no cached vector for a chunk text (${text.slice(0, 40)}...)`);
        return rows === "arrays"
          ? Array.from(floats.subarray(row * dimension, (row + 1) * dimension))
          : floats.subarray(row * dimension, (row + 1) * dimension);
      });
      rowsMs += performance.now() - started;
      return answer;
    },
  };
  const directory = mkdtempSync(join(tmpdir(), "typed-vectors-bench-"));
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const writer = await openLocalSearchPort({ directory: join(directory, "index"), mode: "write", embeddings });
    for (let start = 0; start < chunks.length; start += 1000) {
      const batch = chunks.slice(start, start + 1000);
      batchRows.clear();
      for (const [offset, chunk] of batch.entries()) batchRows.set(chunk.text, start + offset);
      await writer.upsert(
        batch.map((chunk) => ({
          id: chunk.id,
          content: chunk.content,
          metadata: { docId: chunk.docId, chunkIndex: 0, title: chunk.title },
        })),
      );
    }
    await writer.commit();
    await writer.close();
    const buildMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    // CPU time of the build (every thread of the process): steadier than wall time on a shared machine.
    const cpuMs = (used.user + used.system) / 1000;
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    process.stdout.write(`${JSON.stringify({ chunks: chunks.length, buildMs, cpuMs, rowsMs, peakRssMb })}\n`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
