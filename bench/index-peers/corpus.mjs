// The bench's data: SciFact replicated, and its vectors from the offline embedder, made once
// and cached in a file so that every store (and every child process) gets the same vectors.
//
// Replica 0 is the corpus as it is. Replica r > 0 drops about one word in eight, chosen by a
// hash of (r, position), so the copies are not exact ties: without this, the top 10 of every
// store would be an arbitrary pick among identical copies and could not be compared.
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { editedChunks } from "./edits.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const root = join(here, "../..");
/**
 * Where the built packages are loaded from: this checkout, or `BENCH_CODE_ROOT` (a copy of the
 * repository built at another commit, to measure the code before a change beside it after).
 */
export const codeRoot = process.env.BENCH_CODE_ROOT ?? root;
export const datasetDirectory = process.env.BENCH_SCIFACT_DIR ?? join(root, "../shared/datasets/scifact");
export const cacheDirectory = process.env.BENCH_PEER_CACHE ?? join(tmpdir(), "lookup-knowledge-bench-cache");
const generatorVersion = 1;

export async function loadEmbedder() {
  const { createOfflineEmbeddings } = await import(pathToFileURL(join(codeRoot, "packages/embeddings/dist/index.js")).href);
  return createOfflineEmbeddings();
}

function readJsonLines(path) {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

export function readScifact() {
  return {
    corpus: readJsonLines(join(datasetDirectory, "corpus.jsonl")),
    queries: readJsonLines(join(datasetDirectory, "queries.jsonl")),
  };
}

function keep(replica, position) {
  let hash = (Math.imul(replica, 0x9e3779b1) ^ Math.imul(position + 1, 0x85ebca6b)) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) >>> 0;
  return ((hash ^ (hash >>> 13)) & 7) !== 0;
}

/** The text of one document in one replica. */
function replicaText(text, replica) {
  if (replica === 0) return text;
  return text
    .split(" ")
    .filter((_, position) => keep(replica, position))
    .join(" ");
}

/**
 * The chunks of SciFact x `replicas`, in one fixed order: `{ id, docId, title, content, text }`,
 * where `text` is what is embedded and indexed (title and content, as the local port indexes them).
 */
export function* replicatedChunks(corpus, replicas) {
  for (let replica = 0; replica < replicas; replica += 1) {
    for (const document of corpus) {
      const content = replicaText(document.text, replica);
      const title = document.title;
      const text = title.trim() === "" ? content : `${title}\n${content}`;
      yield { id: `${document._id}-r${replica}#chunk-0`, docId: `${document._id}-r${replica}`, title, content, text };
    }
  }
}

export function vectorCachePath(replicas, identity) {
  const name = `scifact-x${replicas}-g${generatorVersion}-${identity.id.replace(/[^a-z0-9]+/gi, "_")}-v${identity.version}`;
  return { vectors: join(cacheDirectory, `${name}.f32`), queries: join(cacheDirectory, `${name}.queries.json`) };
}

/**
 * The cached queries of SciFact x `replicas` (made by `ensureVectors`) and an embedder that
 * answers `embedQuery` with their cached vectors, for a port that searches an index built
 * from them; `script` names the caller in the error `embedDocuments` throws.
 */
export async function cachedQueryEmbeddings(replicas, script) {
  const { identity } = await loadEmbedder();
  const queries = JSON.parse(readFileSync(vectorCachePath(replicas, identity).queries, "utf8"));
  const vectors = new Map(queries.map((query) => [query.text, query.vector]));
  const embeddings = {
    identity,
    embedDocuments: async () => {
      throw new Error(`${script} embeds no documents`);
    },
    embedQuery: async (text) => vectors.get(text),
  };
  return { queries, embeddings };
}

/**
 * Makes the cached vectors of SciFact x `replicas` (chunks and the first `queryCount`
 * queries) unless they are there, and returns where they are.
 */
export async function ensureVectors(replicas, queryCount, log) {
  const embeddings = await loadEmbedder();
  const { identity } = embeddings;
  const paths = vectorCachePath(replicas, identity);
  const { corpus, queries } = readScifact();
  const chosen = queries.slice(0, queryCount);
  const total = corpus.length * replicas;
  mkdirSync(cacheDirectory, { recursive: true });
  const expectedBytes = total * identity.dimension * 4;
  if (!existsSync(paths.vectors) || statSync(paths.vectors).size !== expectedBytes) {
    log(`embedding ${total} chunks once with ${identity.id} (cached in ${paths.vectors}) ...`);
    const started = performance.now();
    // Named per process: two runs at once must not write into one file.
    const partial = `${paths.vectors}.${process.pid}.partial`;
    const file = openSync(partial, "w");
    let batch = [];
    const flush = async () => {
      const vectors = await embeddings.embedDocuments(batch);
      const floats = new Float32Array(vectors.length * identity.dimension);
      vectors.forEach((vector, row) => {
        floats.set(vector, row * identity.dimension);
      });
      writeSync(file, new Uint8Array(floats.buffer));
      batch = [];
    };
    for (const chunk of replicatedChunks(corpus, replicas)) {
      batch.push(chunk.text);
      if (batch.length === 5000) await flush();
    }
    if (batch.length > 0) await flush();
    closeSync(file);
    renameSync(partial, paths.vectors);
    log(`embedded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  let cachedQueries;
  try {
    cachedQueries = JSON.parse(readFileSync(paths.queries, "utf8"));
  } catch {
    cachedQueries = undefined;
  }
  if (cachedQueries?.length !== chosen.length || cachedQueries.some((entry, index) => entry.text !== chosen[index].text)) {
    const vectors = [];
    for (const query of chosen) vectors.push(await embeddings.embedQuery(query.text));
    writeFileSync(paths.queries, JSON.stringify(chosen.map((query, index) => ({ text: query.text, vector: vectors[index] }))));
  }
  return { ...paths, total, dimension: identity.dimension, identity };
}

/**
 * The chunks of SciFact x `replicas` with edits 0 .. `edits` - 1 applied, in batches of
 * `batchChunks` made as they are asked for, each with its rows of the cached vectors read from
 * `vectorsPath` at their offset: `{ start, chunks, floats }` (`floats`: `chunks.length` x
 * `dimension`, a Float32Array of its own). So no store's build holds the corpus or its vectors:
 * only one batch at a time. Throws unless the file holds exactly one vector per chunk.
 * `timing.seconds` grows by the time spent making the batches (so a build's time can leave it out).
 * `vectorReplicas` (default `replicas`, a divisor of it): the file holds the vectors of that many
 * replicas, and chunk row r takes row r mod (corpus x `vectorReplicas`), so a build past the
 * sizes embedded once (10M chunks) reuses a smaller cache: every store gets the same rows.
 */
export function* chunkBatches({
  corpus,
  replicas,
  edits,
  vectorsPath,
  dimension,
  batchChunks,
  timing = { seconds: 0 },
  vectorReplicas = replicas,
}) {
  const total = corpus.length * replicas;
  if (!Number.isInteger(vectorReplicas) || vectorReplicas <= 0 || replicas % vectorReplicas !== 0)
    throw new Error(`vectorReplicas must be a positive divisor of replicas (${replicas}), got ${vectorReplicas}`);
  const vectorRows = corpus.length * vectorReplicas;
  const rowBytes = dimension * 4;
  const file = openSync(vectorsPath, "r");
  try {
    const size = fstatSync(file).size;
    if (size !== vectorRows * rowBytes)
      throw new Error(`${vectorsPath} holds ${size / rowBytes} vectors, not one per chunk (${vectorRows})`);
    let batch = [];
    let start = 0;
    const take = () => {
      const floats = new Float32Array(batch.length * dimension);
      const bytes = new Uint8Array(floats.buffer);
      // Rows wrap at the file's end (vectorReplicas < replicas): read up to it, then from row 0.
      let read = 0;
      while (read < bytes.length) {
        const row = (start + Math.floor(read / rowBytes)) % vectorRows;
        const inRow = read % rowBytes;
        const want = Math.min(bytes.length - read, (vectorRows - row) * rowBytes - inRow);
        const got = readSync(file, bytes, read, want, row * rowBytes + inRow);
        if (got === 0) throw new Error(`${vectorsPath} ended before row ${start + batch.length}`);
        read += got;
      }
      const done = { start, chunks: batch, floats };
      start += batch.length;
      batch = [];
      return done;
    };
    let resumed = performance.now();
    let cpuResumed = process.cpuUsage();
    const made = () => {
      const done = take();
      timing.seconds += (performance.now() - resumed) / 1000;
      // The process's CPU time (all its threads) while the batch was made: the store's build
      // CPU is the process's less this (close, not exact: a store's own threads may run meanwhile).
      const cpu = process.cpuUsage(cpuResumed);
      timing.cpuSeconds = (timing.cpuSeconds ?? 0) + (cpu.user + cpu.system) / 1e6;
      return done;
    };
    for (const chunk of editedChunks(replicatedChunks(corpus, replicas), total, edits)) {
      batch.push(chunk);
      if (batch.length === batchChunks) {
        yield made();
        resumed = performance.now();
        cpuResumed = process.cpuUsage();
      }
    }
    if (batch.length > 0) yield made();
    if (start !== total) throw new Error(`${start} chunks were made, ${total} expected`);
  } finally {
    closeSync(file);
  }
}

export function readVectors(path, dimension) {
  const bytes = readFileSync(path);
  return { floats: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4), dimension };
}
