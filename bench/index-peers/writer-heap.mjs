// What a writer keeps as flushed segments accumulate (issue 36: the writer's memory flat with
// the index's size): our local index fed SciFact x `replicas` (the cached vectors, x 20) with a
// flush forced every `flush` records, the heap after a forced GC every 20,000 records:
//   node --expose-gc bench/index-peers/writer-heap.mjs <empty directory> [flush, default 2000] [replicas, default 20]
// A line per 20,000 records: heapUsed, external, arrayBuffers and RSS. Memory that grows with
// the flushes, not the records, is per segment; what grows with the records at any flush size is per record.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chunkBatches, codeRoot, loadEmbedder, readScifact, vectorCachePath } from "./corpus.mjs";

const [directory, flushText, replicasText] = process.argv.slice(2);
const flushRecords = Number(flushText ?? 2000);
const replicas = Number(replicasText ?? 20);
if (directory === undefined || !(flushRecords >= 1) || !(replicas > 0) || replicas % 20 !== 0 || typeof globalThis.gc !== "function") {
  throw new Error(
    `usage: node --expose-gc writer-heap.mjs <empty directory> [flush] [replicas, a multiple of 20], got ${process.argv.slice(2).join(" ")}`,
  );
}
const { openLocalSearchPortWithHooks } = await import(
  pathToFileURL(join(codeRoot, "packages/search-port/dist/local/open-local-search-port.js")).href
);
const { identity } = await loadEmbedder();
const { dimension } = identity;
const { corpus } = readScifact();
const vectors = new Map();
const embeddings = {
  identity,
  async embedDocuments(texts) {
    return texts.map((text) => vectors.get(text));
  },
  async embedQuery() {
    return new Array(dimension).fill(0);
  },
};
const writer = await openLocalSearchPortWithHooks({ directory, mode: "write", embeddings }, { flushRecords });
const mb = (bytes) => (bytes / 1048576).toFixed(1);
const batches = chunkBatches({
  corpus,
  replicas,
  edits: 0,
  vectorsPath: vectorCachePath(20, identity).vectors,
  dimension,
  batchChunks: 10_000,
  vectorReplicas: 20,
});
let done = 0;
for (const { chunks, floats } of batches) {
  for (let start = 0; start < chunks.length; start += 1000) {
    const batch = chunks.slice(start, start + 1000);
    vectors.clear();
    batch.forEach((chunk, offset) => {
      vectors.set(chunk.text, floats.subarray((start + offset) * dimension, (start + offset + 1) * dimension));
    });
    await writer.upsert(
      batch.map((chunk) => ({ id: chunk.id, content: chunk.content, metadata: { docId: chunk.docId, title: chunk.title } })),
    );
    done += batch.length;
    if (done % 20_000 !== 0) continue;
    // Twice: the first may leave what finalizers free to the next.
    globalThis.gc();
    globalThis.gc();
    const memory = process.memoryUsage();
    console.log(
      `${done} records, ${Math.floor(done / flushRecords)} flushes: heapUsed ${mb(memory.heapUsed)} MB, external ${mb(memory.external)} MB, arrayBuffers ${mb(memory.arrayBuffers)} MB, rss ${mb(memory.rss)} MB`,
    );
  }
}
await writer.close();
