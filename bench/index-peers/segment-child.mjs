// One phase of the segments bench (issue 36) on our index, in a process of its own, through
// the public API of `@lookup-knowledge/search-port/local` only:
//   node segment-child.mjs edit <index folder> <replicas> <first edit> <edits>
//     opens a writer and makes each edit (edits.mjs) a commit of its own, as an ingest of one
//     changed document does (deleteDocuments of the document, upsert of its chunks, commit);
//     per commit: the change's and the commit's wall time, the bytes written into the folder
//     (folder-writes.mjs) and the bytes this process passed to write calls.
//   node segment-child.mjs optimize <index folder> <replicas>
//     opens a writer and, when the port has one, times `optimize()`; else { unsupported: true }.
// Prints one JSON line on stdout (with the process's peak RSS); everything else goes to stderr.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { codeRoot, loadEmbedder, readScifact, readVectors, replicatedChunks, vectorCachePath } from "./corpus.mjs";
import { editedChunk, editedRow } from "./edits.mjs";
import { folderState, processWriteBytes, writtenBetween } from "./folder-writes.mjs";

const { openLocalSearchPort } = await import(pathToFileURL(join(codeRoot, "packages/search-port/dist/local/index.js")).href);
const [phase, directory, replicasText, firstText, countText] = process.argv.slice(2);
const replicas = Number(replicasText);
const first = Number(firstText ?? 0);
const count = Number(countText ?? 0);
if (!["edit", "optimize"].includes(phase) || directory === undefined || !(replicas > 0) || !(first >= 0) || !(count >= 0)) {
  throw new Error(
    `usage: segment-child.mjs edit <index folder> <replicas> <first edit> <edits> | optimize <index folder> <replicas>, got ${process.argv.slice(2).join(" ")}`,
  );
}
const { identity } = await loadEmbedder();
const peakRssMb = () => (process.resourceUsage().maxRSS * 1024) / 1024 / 1024;

/** An embedder that answers with the vectors in `vectors` (text to vector) and refuses any other text. */
function cachedEmbeddings(vectors) {
  return {
    identity,
    async embedDocuments(texts) {
      return texts.map((text) => {
        const vector = vectors.get(text);
        if (vector === undefined) throw new Error(`segment-child.mjs: no cached vector for a chunk text (${text.slice(0, 40)}...)`);
        return vector;
      });
    },
    async embedQuery() {
      throw new Error("segment-child.mjs searches nothing");
    },
  };
}

/** The chunks of edits first .. first + count - 1, each with its row's cached vector. */
function editsToMake() {
  const chunks = [...replicatedChunks(readScifact().corpus, replicas)];
  const { floats, dimension } = readVectors(vectorCachePath(replicas, identity).vectors, identity.dimension);
  const edits = [];
  for (let n = first; n < first + count; n += 1) {
    const row = editedRow(n, chunks.length);
    const vector = Array.from(floats.subarray(row * dimension, (row + 1) * dimension));
    edits.push({ n, chunk: editedChunk(chunks[row], n), vector });
  }
  return edits;
}

async function edit() {
  const edits = editsToMake();
  const embeddings = cachedEmbeddings(new Map(edits.map(({ chunk, vector }) => [chunk.text, vector])));
  let started = performance.now();
  const writer = await openLocalSearchPort({ directory, mode: "write", embeddings });
  const openMs = performance.now() - started;
  const commits = [];
  for (const { n, chunk } of edits) {
    const before = folderState(directory);
    const writesBefore = processWriteBytes();
    started = performance.now();
    await writer.deleteDocuments([chunk.docId]);
    await writer.upsert([{ id: chunk.id, content: chunk.content, metadata: { docId: chunk.docId, chunkIndex: 0, title: chunk.title } }]);
    const changeMs = performance.now() - started;
    started = performance.now();
    await writer.commit();
    const commitMs = performance.now() - started;
    const writeCalls = writesBefore === undefined ? undefined : processWriteBytes() - writesBefore;
    const written = writtenBetween(before, folderState(directory));
    // What the edit itself is: its content, title and ids as UTF-8, and its vector as float32.
    const payloadBytes = Buffer.byteLength(chunk.content + chunk.title + chunk.id + chunk.docId) + identity.dimension * 4;
    commits.push({ n, changeMs, commitMs, written, writeCalls, payloadBytes });
  }
  started = performance.now();
  await writer.close();
  const closeMs = performance.now() - started;
  return { openMs, closeMs, commits, files: folderState(directory).size, peakRssMb: peakRssMb() };
}

async function optimize() {
  const writer = await openLocalSearchPort({ directory, mode: "write", embeddings: cachedEmbeddings(new Map()) });
  if (typeof writer.optimize !== "function") {
    await writer.close();
    return { unsupported: true };
  }
  const before = folderState(directory);
  const started = performance.now();
  await writer.optimize();
  const optimizeMs = performance.now() - started;
  await writer.close();
  const written = writtenBetween(before, folderState(directory));
  return { optimizeMs, writtenBytes: written.bytes, files: folderState(directory).size, peakRssMb: peakRssMb() };
}

console.log(JSON.stringify(phase === "edit" ? await edit() : await optimize()));
